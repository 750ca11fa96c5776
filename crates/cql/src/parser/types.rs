//! Data types: native, collections, tuples, vectors, `frozen<>`, user-defined type
//! references and custom `'class'` types (Cassandra's `comparatorType`).

use super::{PResult, Parser};
use crate::ast::{DataType, DataTypeKind, NativeType, QualifiedName};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Punct, TokenKind};

/// Names Cassandra refuses for user-defined types (its `reservedTypeNames`).
const RESERVED_TYPE_NAMES: &[&str] = &[
    "byte",
    "complex",
    "enum",
    "date",
    "interval",
    "macaddr",
    "bitstring",
];

impl Parser<'_> {
    pub(crate) fn data_type(&mut self) -> PResult<DataType> {
        self.nested(Self::data_type_inner)
    }

    fn data_type_inner(&mut self) -> PResult<DataType> {
        let start = self.peek().span.start;
        let token = self.peek().clone();
        let kind = match &token.kind {
            TokenKind::Str { value, .. } => {
                self.bump();
                DataTypeKind::Custom(value.clone())
            }
            TokenKind::Word(word) => {
                let lower = word.to_ascii_lowercase();
                let generic = self.nth_is_punct(1, Punct::Lt);
                match lower.as_str() {
                    "list" | "set" | "map" | "tuple" | "vector" | "frozen" if generic => {
                        self.bump();
                        self.generic_type(&lower)?
                    }
                    _ => match NativeType::from_name(&lower) {
                        // `text.my_type` would be a type in a keyspace named `text`.
                        Some(native) if !self.nth_is_punct(1, Punct::Dot) => {
                            self.bump();
                            DataTypeKind::Native(native)
                        }
                        _ => DataTypeKind::Udt(self.user_type_name()?),
                    },
                }
            }
            TokenKind::QuotedIdent(_) => DataTypeKind::Udt(self.user_type_name()?),
            _ => return Err(self.unexpected(&["data type"])),
        };
        Ok(DataType {
            kind,
            span: self.span_from(start),
        })
    }

    /// The part after `list`, `map`, ...: `'<' ... '>'`.
    fn generic_type(&mut self, name: &str) -> PResult<DataTypeKind> {
        self.expect_punct(Punct::Lt)?;
        let kind = match name {
            "list" => DataTypeKind::List(Box::new(self.data_type()?)),
            "set" => DataTypeKind::Set(Box::new(self.data_type()?)),
            "frozen" => DataTypeKind::Frozen(Box::new(self.data_type()?)),
            "map" => {
                let key = self.data_type()?;
                self.expect_punct(Punct::Comma)?;
                let value = self.data_type()?;
                DataTypeKind::Map(Box::new(key), Box::new(value))
            }
            "vector" => {
                let element = self.data_type()?;
                self.expect_punct(Punct::Comma)?;
                let dimension = self.vector_dimension()?;
                DataTypeKind::Vector(Box::new(element), dimension)
            }
            _ => DataTypeKind::Tuple(self.comma_separated(|p| p.data_type())?),
        };
        self.expect_punct(Punct::Gt)?;
        Ok(kind)
    }

    fn vector_dimension(&mut self) -> PResult<u32> {
        let token = self.peek().clone();
        match &token.kind {
            TokenKind::Integer(text) => {
                self.bump();
                text.parse::<u32>().map_err(|_| {
                    ParseError::new(
                        ParseErrorKind::InvalidNumber { text: text.clone() },
                        token.span,
                    )
                })
            }
            _ => Err(self.unexpected(&["vector dimension"])),
        }
    }

    /// `[keyspace '.'] name` naming a user-defined type.
    fn user_type_name(&mut self) -> PResult<QualifiedName> {
        let name = self.qualified_name_expecting("type name")?;
        let unquoted = matches!(
            &self.tokens.get(self.pos.wrapping_sub(1)).map(|t| &t.kind),
            Some(TokenKind::Word(_))
        );
        if unquoted && RESERVED_TYPE_NAMES.contains(&name.name.as_str()) {
            return Err(ParseError::new(
                ParseErrorKind::UnknownType {
                    name: name.name.value.clone(),
                },
                name.name.span,
            ));
        }
        Ok(name)
    }
}
