//! Data types print lower-case, as DESCRIBE prints them: `map<text, frozen<list<int>>>`.

use std::fmt::{self, Display, Formatter};

use super::{comma, write_string};
use crate::ast::{DataType, DataTypeKind, NativeType};

impl Display for NativeType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Display for DataType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl Display for DataTypeKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            DataTypeKind::Native(native) => native.fmt(f),
            DataTypeKind::List(element) => write!(f, "list<{element}>"),
            DataTypeKind::Set(element) => write!(f, "set<{element}>"),
            DataTypeKind::Map(key, value) => write!(f, "map<{key}, {value}>"),
            DataTypeKind::Tuple(items) => write!(f, "tuple<{}>", comma(items)),
            DataTypeKind::Frozen(inner) => write!(f, "frozen<{inner}>"),
            DataTypeKind::Vector(element, dimension) => write!(f, "vector<{element}, {dimension}>"),
            DataTypeKind::Udt(name) => name.fmt(f),
            DataTypeKind::Custom(class) => write_string(f, class),
        }
    }
}
