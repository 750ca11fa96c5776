//! Roles, users, permissions, identities and triggers.

use std::fmt::{self, Display, Formatter};

use super::ddl::{if_exists, if_not_exists};
use super::{Sep, comma, write_string};
use crate::ast::{
    AccessStatement, CreateTrigger, DropTrigger, Permission, Permissions, Resource, RoleName,
    RoleOption, UserPassword,
};

impl Display for RoleName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RoleName::Ident(ident) => ident.fmt(f),
            RoleName::String(value) => write_string(f, value),
        }
    }
}

impl Display for Permission {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

impl Display for Permissions {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Permissions::All => f.write_str("ALL PERMISSIONS"),
            Permissions::Some(list) => comma(list).fmt(f),
        }
    }
}

/// `{'a', 'b'}`.
struct StringSet<'a>(&'a [String]);

impl Display for StringSet<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, value) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_string(f, value)?;
        }
        f.write_str("}")
    }
}

impl Display for RoleOption {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RoleOption::Password(p) => {
                f.write_str("PASSWORD = ")?;
                write_string(f, p)
            }
            RoleOption::HashedPassword(p) => {
                f.write_str("HASHED PASSWORD = ")?;
                write_string(f, p)
            }
            RoleOption::GeneratedPassword => f.write_str("GENERATED PASSWORD"),
            RoleOption::Options(map) => write!(f, "OPTIONS = {map}"),
            RoleOption::Superuser(b) => write!(f, "SUPERUSER = {b}"),
            RoleOption::Login(b) => write!(f, "LOGIN = {b}"),
            RoleOption::AccessToAllDatacenters => f.write_str("ACCESS TO ALL DATACENTERS"),
            RoleOption::AccessToDatacenters(dcs) => {
                write!(f, "ACCESS TO DATACENTERS {}", StringSet(dcs))
            }
            RoleOption::AccessFromAllCidrs => f.write_str("ACCESS FROM ALL CIDRS"),
            RoleOption::AccessFromCidrs(cidrs) => {
                write!(f, "ACCESS FROM CIDRS {}", StringSet(cidrs))
            }
        }
    }
}

impl Display for Resource {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Resource::AllKeyspaces => f.write_str("ALL KEYSPACES"),
            Resource::Keyspace(ks) => write!(f, "KEYSPACE {ks}"),
            Resource::Table(table) => write!(f, "TABLE {table}"),
            Resource::AllTablesInKeyspace(ks) => write!(f, "ALL TABLES IN KEYSPACE {ks}"),
            Resource::AllRoles => f.write_str("ALL ROLES"),
            Resource::Role(role) => write!(f, "ROLE {role}"),
            Resource::AllFunctions => f.write_str("ALL FUNCTIONS"),
            Resource::AllFunctionsInKeyspace(ks) => write!(f, "ALL FUNCTIONS IN KEYSPACE {ks}"),
            Resource::Function { name, arg_types } => {
                write!(
                    f,
                    "FUNCTION {}({})",
                    super::FunctionName(name),
                    comma(arg_types)
                )
            }
            Resource::AllMbeans => f.write_str("ALL MBEANS"),
            Resource::Mbean(name) => {
                f.write_str("MBEAN ")?;
                write_string(f, name)
            }
            Resource::Mbeans(pattern) => {
                f.write_str("MBEANS ")?;
                write_string(f, pattern)
            }
        }
    }
}

fn write_user_options(
    f: &mut Formatter<'_>,
    password: &Option<UserPassword>,
    superuser: Option<bool>,
) -> fmt::Result {
    match password {
        Some(UserPassword::Password(p)) => {
            f.write_str(" WITH PASSWORD ")?;
            write_string(f, p)?;
        }
        Some(UserPassword::HashedPassword(p)) => {
            f.write_str(" WITH HASHED PASSWORD ")?;
            write_string(f, p)?;
        }
        Some(UserPassword::GeneratedPassword) => f.write_str(" WITH GENERATED PASSWORD")?,
        None => {}
    }
    match superuser {
        Some(true) => f.write_str(" SUPERUSER"),
        Some(false) => f.write_str(" NOSUPERUSER"),
        None => Ok(()),
    }
}

fn write_role_options(f: &mut Formatter<'_>, options: &[RoleOption]) -> fmt::Result {
    if options.is_empty() {
        return Ok(());
    }
    write!(f, " WITH {}", Sep(options, " AND "))
}

fn write_of(f: &mut Formatter<'_>, of: &Option<RoleName>, recursive: bool) -> fmt::Result {
    if let Some(role) = of {
        write!(f, " OF {role}")?;
    }
    if !recursive {
        f.write_str(" NORECURSIVE")?;
    }
    Ok(())
}

impl Display for AccessStatement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            AccessStatement::CreateRole {
                if_not_exists: ine,
                name,
                options,
            } => {
                write!(f, "CREATE ROLE {}{name}", if_not_exists(*ine))?;
                write_role_options(f, options)
            }
            AccessStatement::AlterRole {
                if_exists: ie,
                name,
                options,
            } => {
                write!(f, "ALTER ROLE {}{name}", if_exists(*ie))?;
                write_role_options(f, options)
            }
            AccessStatement::DropRole {
                if_exists: ie,
                name,
            } => {
                write!(f, "DROP ROLE {}{name}", if_exists(*ie))
            }
            AccessStatement::ListRoles { of, recursive } => {
                f.write_str("LIST ROLES")?;
                write_of(f, of, *recursive)
            }
            AccessStatement::CreateUser {
                if_not_exists: ine,
                name,
                password,
                superuser,
            } => {
                write!(f, "CREATE USER {}{name}", if_not_exists(*ine))?;
                write_user_options(f, password, *superuser)
            }
            AccessStatement::AlterUser {
                if_exists: ie,
                name,
                password,
                superuser,
            } => {
                write!(f, "ALTER USER {}{name}", if_exists(*ie))?;
                write_user_options(f, password, *superuser)
            }
            AccessStatement::DropUser {
                if_exists: ie,
                name,
            } => {
                write!(f, "DROP USER {}{name}", if_exists(*ie))
            }
            AccessStatement::ListUsers => f.write_str("LIST USERS"),
            AccessStatement::ListSuperusers => f.write_str("LIST SUPERUSERS"),
            AccessStatement::GrantPermissions {
                permissions,
                resource,
                role,
            } => write!(f, "GRANT {permissions} ON {resource} TO {role}"),
            AccessStatement::RevokePermissions {
                permissions,
                resource,
                role,
            } => write!(f, "REVOKE {permissions} ON {resource} FROM {role}"),
            AccessStatement::ListPermissions {
                permissions,
                resource,
                of,
                recursive,
            } => {
                write!(f, "LIST {permissions}")?;
                if let Some(resource) = resource {
                    write!(f, " ON {resource}")?;
                }
                write_of(f, of, *recursive)
            }
            AccessStatement::GrantRole { role, grantee } => write!(f, "GRANT {role} TO {grantee}"),
            AccessStatement::RevokeRole { role, revokee } => {
                write!(f, "REVOKE {role} FROM {revokee}")
            }
            AccessStatement::AddIdentity {
                if_not_exists: ine,
                identity,
                role,
            } => write!(
                f,
                "ADD IDENTITY {}{identity} TO ROLE {role}",
                if_not_exists(*ine)
            ),
            AccessStatement::DropIdentity {
                if_exists: ie,
                identity,
            } => write!(f, "DROP IDENTITY {}{identity}", if_exists(*ie)),
        }
    }
}

impl Display for CreateTrigger {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE TRIGGER {}{} ON {} USING ",
            if_not_exists(self.if_not_exists),
            self.name,
            self.table
        )?;
        write_string(f, &self.class)
    }
}

impl Display for DropTrigger {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DROP TRIGGER {}{} ON {}",
            if_exists(self.if_exists),
            self.name,
            self.table
        )
    }
}
