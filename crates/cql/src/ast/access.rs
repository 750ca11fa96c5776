//! Statements about who may do what (roles, users, permissions, identities)
//! and triggers. None of them shapes a table: the schema model accepts them as
//! no-ops, but they are parsed so that a real `DESCRIBE` or setup script reads
//! cleanly and prints back.

use super::{DataType, Ident, QualifiedName, Term};

/// A role or user name: an identifier (unquoted ones are lower-cased, except
/// after `CREATE/ALTER/DROP USER`, where Cassandra keeps the case) or a string.
#[derive(Debug, Clone, PartialEq)]
pub enum RoleName {
    Ident(Ident),
    String(String),
}

/// One option of `CREATE ROLE` / `ALTER ROLE ... WITH`.
#[derive(Debug, Clone, PartialEq)]
pub enum RoleOption {
    Password(String),
    HashedPassword(String),
    GeneratedPassword,
    /// `OPTIONS = {...}`: a map literal.
    Options(Term),
    Superuser(bool),
    Login(bool),
    AccessToAllDatacenters,
    AccessToDatacenters(Vec<String>),
    AccessFromAllCidrs,
    AccessFromCidrs(Vec<String>),
}

/// The password clause of the legacy `CREATE USER` / `ALTER USER` (no `=`).
#[derive(Debug, Clone, PartialEq)]
pub enum UserPassword {
    Password(String),
    HashedPassword(String),
    GeneratedPassword,
}

/// One permission of `GRANT`, `REVOKE` and `LIST`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    Create,
    Alter,
    Drop,
    Select,
    Modify,
    Authorize,
    Describe,
    Execute,
    /// 5.0 dynamic data masking: read masked columns in the clear.
    Unmask,
    /// 5.0 dynamic data masking: filter on masked columns.
    SelectMasked,
}

impl Permission {
    pub const ALL: [Permission; 10] = [
        Permission::Create,
        Permission::Alter,
        Permission::Drop,
        Permission::Select,
        Permission::Modify,
        Permission::Authorize,
        Permission::Describe,
        Permission::Execute,
        Permission::Unmask,
        Permission::SelectMasked,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            Permission::Create => "CREATE",
            Permission::Alter => "ALTER",
            Permission::Drop => "DROP",
            Permission::Select => "SELECT",
            Permission::Modify => "MODIFY",
            Permission::Authorize => "AUTHORIZE",
            Permission::Describe => "DESCRIBE",
            Permission::Execute => "EXECUTE",
            Permission::Unmask => "UNMASK",
            Permission::SelectMasked => "SELECT_MASKED",
        }
    }
}

/// `ALL [PERMISSIONS]` or a list of permissions.
#[derive(Debug, Clone, PartialEq)]
pub enum Permissions {
    All,
    Some(Vec<Permission>),
}

/// What a permission is granted on.
#[derive(Debug, Clone, PartialEq)]
pub enum Resource {
    AllKeyspaces,
    Keyspace(Ident),
    Table(QualifiedName),
    AllTablesInKeyspace(Ident),
    AllRoles,
    Role(RoleName),
    AllFunctions,
    AllFunctionsInKeyspace(Ident),
    /// `FUNCTION ks.f(int, text)`: the argument types are mandatory.
    Function {
        name: QualifiedName,
        arg_types: Vec<DataType>,
    },
    AllMbeans,
    Mbean(String),
    Mbeans(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum AccessStatement {
    CreateRole {
        if_not_exists: bool,
        name: RoleName,
        options: Vec<RoleOption>,
    },
    AlterRole {
        if_exists: bool,
        name: RoleName,
        options: Vec<RoleOption>,
    },
    DropRole {
        if_exists: bool,
        name: RoleName,
    },
    /// `LIST ROLES [OF role] [NORECURSIVE]`.
    ListRoles {
        of: Option<RoleName>,
        recursive: bool,
    },
    CreateUser {
        if_not_exists: bool,
        name: RoleName,
        password: Option<UserPassword>,
        superuser: Option<bool>,
    },
    AlterUser {
        if_exists: bool,
        name: RoleName,
        password: Option<UserPassword>,
        superuser: Option<bool>,
    },
    DropUser {
        if_exists: bool,
        name: RoleName,
    },
    ListUsers,
    ListSuperusers,
    GrantPermissions {
        permissions: Permissions,
        resource: Resource,
        role: RoleName,
    },
    RevokePermissions {
        permissions: Permissions,
        resource: Resource,
        role: RoleName,
    },
    /// `LIST perms [ON resource] [OF role] [NORECURSIVE]`.
    ListPermissions {
        permissions: Permissions,
        resource: Option<Resource>,
        of: Option<RoleName>,
        recursive: bool,
    },
    GrantRole {
        role: RoleName,
        grantee: RoleName,
    },
    RevokeRole {
        role: RoleName,
        revokee: RoleName,
    },
    /// `ADD IDENTITY [IF NOT EXISTS] 'id' TO ROLE r` (5.0, mTLS authenticators).
    AddIdentity {
        if_not_exists: bool,
        identity: RoleName,
        role: RoleName,
    },
    DropIdentity {
        if_exists: bool,
        identity: RoleName,
    },
}

impl AccessStatement {
    /// The statement's leading words, for messages (`CREATE ROLE`, `GRANT`).
    pub fn keywords(&self) -> &'static str {
        match self {
            AccessStatement::CreateRole { .. } => "CREATE ROLE",
            AccessStatement::AlterRole { .. } => "ALTER ROLE",
            AccessStatement::DropRole { .. } => "DROP ROLE",
            AccessStatement::ListRoles { .. } => "LIST ROLES",
            AccessStatement::CreateUser { .. } => "CREATE USER",
            AccessStatement::AlterUser { .. } => "ALTER USER",
            AccessStatement::DropUser { .. } => "DROP USER",
            AccessStatement::ListUsers => "LIST USERS",
            AccessStatement::ListSuperusers => "LIST SUPERUSERS",
            AccessStatement::GrantPermissions { .. } | AccessStatement::GrantRole { .. } => "GRANT",
            AccessStatement::RevokePermissions { .. } | AccessStatement::RevokeRole { .. } => {
                "REVOKE"
            }
            AccessStatement::ListPermissions { .. } => "LIST PERMISSIONS",
            AccessStatement::AddIdentity { .. } => "ADD IDENTITY",
            AccessStatement::DropIdentity { .. } => "DROP IDENTITY",
        }
    }
}

/// `CREATE TRIGGER [IF NOT EXISTS] name ON table USING 'class'`.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTrigger {
    pub if_not_exists: bool,
    pub name: Ident,
    pub table: QualifiedName,
    pub class: String,
}

/// `DROP TRIGGER [IF EXISTS] name ON table`.
#[derive(Debug, Clone, PartialEq)]
pub struct DropTrigger {
    pub if_exists: bool,
    pub name: Ident,
    pub table: QualifiedName,
}
