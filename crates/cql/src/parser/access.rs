//! Roles, users, permissions, identities (Cassandra 5.0's `createRoleStatement`,
//! `grantPermissionsStatement`, `addIdentityStatement`, ...) and triggers.

use super::{PResult, Parser};
use crate::ast::{
    AccessStatement, CreateTrigger, DropTrigger, Ident, Permission, Permissions, Resource,
    RoleName, RoleOption, StatementKind, UserPassword,
};
use crate::keywords::is_reserved_keyword;
use crate::lexer::{Punct, TokenKind};

impl Parser<'_> {
    /// After `CREATE`, at `ROLE`, `USER` or `TRIGGER`.
    pub(crate) fn create_access(&mut self) -> PResult<StatementKind> {
        if self.eat_word("trigger") {
            let if_not_exists = self.if_not_exists();
            let name = self.ident_expecting("trigger name")?;
            self.expect_word("on")?;
            let table = self.qualified_name_expecting("table name")?;
            self.expect_word("using")?;
            let class = self.string_literal("trigger class string")?;
            return Ok(StatementKind::CreateTrigger(CreateTrigger {
                if_not_exists,
                name,
                table,
                class,
            }));
        }
        let statement = if self.eat_word("role") {
            let if_not_exists = self.if_not_exists();
            let name = self.role_name(false)?;
            let options = self.role_options()?;
            AccessStatement::CreateRole {
                if_not_exists,
                name,
                options,
            }
        } else {
            self.expect_word("user")?;
            let if_not_exists = self.if_not_exists();
            let name = self.role_name(true)?;
            let (password, superuser) = self.user_options()?;
            AccessStatement::CreateUser {
                if_not_exists,
                name,
                password,
                superuser,
            }
        };
        Ok(StatementKind::Access(statement))
    }

    /// After `ALTER`, at `ROLE` or `USER`.
    pub(crate) fn alter_access(&mut self) -> PResult<StatementKind> {
        let statement = if self.eat_word("role") {
            let if_exists = self.if_exists();
            let name = self.role_name(false)?;
            let options = self.role_options()?;
            AccessStatement::AlterRole {
                if_exists,
                name,
                options,
            }
        } else {
            self.expect_word("user")?;
            let if_exists = self.if_exists();
            let name = self.role_name(true)?;
            let (password, superuser) = self.user_options()?;
            AccessStatement::AlterUser {
                if_exists,
                name,
                password,
                superuser,
            }
        };
        Ok(StatementKind::Access(statement))
    }

    /// After `DROP`, at `ROLE`, `USER`, `IDENTITY` or `TRIGGER`.
    pub(crate) fn drop_access(&mut self) -> PResult<StatementKind> {
        if self.eat_word("trigger") {
            let if_exists = self.if_exists();
            let name = self.ident_expecting("trigger name")?;
            self.expect_word("on")?;
            let table = self.qualified_name_expecting("table name")?;
            return Ok(StatementKind::DropTrigger(DropTrigger {
                if_exists,
                name,
                table,
            }));
        }
        let statement = if self.eat_word("role") {
            let if_exists = self.if_exists();
            let name = self.role_name(false)?;
            AccessStatement::DropRole { if_exists, name }
        } else if self.eat_word("user") {
            let if_exists = self.if_exists();
            let name = self.role_name(true)?;
            AccessStatement::DropUser { if_exists, name }
        } else {
            self.expect_word("identity")?;
            let if_exists = self.if_exists();
            let identity = self.role_name(true)?;
            AccessStatement::DropIdentity {
                if_exists,
                identity,
            }
        };
        Ok(StatementKind::Access(statement))
    }

    /// `ADD IDENTITY [IF NOT EXISTS] identity TO ROLE role`.
    pub(crate) fn add_identity(&mut self) -> PResult<StatementKind> {
        self.expect_word("add")?;
        self.expect_word("identity")?;
        let if_not_exists = self.if_not_exists();
        let identity = self.role_name(true)?;
        self.expect_word("to")?;
        self.expect_word("role")?;
        let role = self.role_name(true)?;
        Ok(StatementKind::Access(AccessStatement::AddIdentity {
            if_not_exists,
            identity,
            role,
        }))
    }

    /// `GRANT perms ON resource TO role` or `GRANT role TO role`.
    pub(crate) fn grant(&mut self) -> PResult<StatementKind> {
        self.expect_word("grant")?;
        let statement = match self.at_permissions() {
            true => {
                let (permissions, resource) = self.permissions_on()?;
                self.expect_word("to")?;
                let role = self.role_name(false)?;
                AccessStatement::GrantPermissions {
                    permissions,
                    resource,
                    role,
                }
            }
            false => {
                let role = self.role_name(false)?;
                self.expect_word("to")?;
                let grantee = self.role_name(false)?;
                AccessStatement::GrantRole { role, grantee }
            }
        };
        Ok(StatementKind::Access(statement))
    }

    /// `REVOKE perms ON resource FROM role` or `REVOKE role FROM role`.
    pub(crate) fn revoke(&mut self) -> PResult<StatementKind> {
        self.expect_word("revoke")?;
        let statement = match self.at_permissions() {
            true => {
                let (permissions, resource) = self.permissions_on()?;
                self.expect_word("from")?;
                let role = self.role_name(false)?;
                AccessStatement::RevokePermissions {
                    permissions,
                    resource,
                    role,
                }
            }
            false => {
                let role = self.role_name(false)?;
                self.expect_word("from")?;
                let revokee = self.role_name(false)?;
                AccessStatement::RevokeRole { role, revokee }
            }
        };
        Ok(StatementKind::Access(statement))
    }

    /// `LIST ROLES | USERS | SUPERUSERS | perms [ON resource] [OF role] [NORECURSIVE]`.
    pub(crate) fn list(&mut self) -> PResult<StatementKind> {
        self.expect_word("list")?;
        let statement = if self.eat_word("users") {
            AccessStatement::ListUsers
        } else if self.eat_word("superusers") {
            AccessStatement::ListSuperusers
        } else if self.eat_word("roles") {
            let of = self.of_role()?;
            let recursive = !self.eat_word("norecursive");
            AccessStatement::ListRoles { of, recursive }
        } else {
            let permissions = self.permissions()?;
            let resource = if self.eat_word("on") {
                Some(self.resource()?)
            } else {
                None
            };
            let of = self.of_role()?;
            let recursive = !self.eat_word("norecursive");
            AccessStatement::ListPermissions {
                permissions,
                resource,
                of,
                recursive,
            }
        };
        Ok(StatementKind::Access(statement))
    }

    fn of_role(&mut self) -> PResult<Option<RoleName>> {
        if self.eat_word("of") {
            Ok(Some(self.role_name(false)?))
        } else {
            Ok(None)
        }
    }

    /// At the permissions of `GRANT perms ON …` rather than the role of
    /// `GRANT role TO …`: `ALL` and most permissions are reserved words (never
    /// a bare role name); `UNMASK` and `SELECT_MASKED` are not, so for them the
    /// next token decides.
    fn at_permissions(&self) -> bool {
        if self.at_word("all") {
            return true;
        }
        let Some(permission) = Permission::ALL
            .into_iter()
            .find(|perm| self.at_word(perm.keyword()))
        else {
            return false;
        };
        is_reserved_keyword(permission.keyword())
            || self.nth_is_punct(1, Punct::Comma)
            || self.nth_is_word(1, "on")
            || self.nth_is_word(1, "permission")
    }

    /// `perms ON resource`, for the lookahead between a permission grant and a role grant.
    fn permissions_on(&mut self) -> PResult<(Permissions, Resource)> {
        let permissions = self.permissions()?;
        self.expect_word("on")?;
        Ok((permissions, self.resource()?))
    }

    /// `ALL [PERMISSIONS]` or `perm [PERMISSION] (',' perm [PERMISSION])*`.
    fn permissions(&mut self) -> PResult<Permissions> {
        if self.eat_word("all") {
            self.eat_word("permissions");
            return Ok(Permissions::All);
        }
        let list = self.comma_separated(|p| {
            let permission = p.permission()?;
            p.eat_word("permission");
            Ok(permission)
        })?;
        Ok(Permissions::Some(list))
    }

    fn permission(&mut self) -> PResult<Permission> {
        let found = Permission::ALL
            .into_iter()
            .find(|perm| self.at_word(perm.keyword()));
        match found {
            Some(permission) => {
                self.bump();
                Ok(permission)
            }
            None => Err(self.unexpected(&["permission", "ALL"])),
        }
    }

    fn resource(&mut self) -> PResult<Resource> {
        if self.eat_word("all") {
            return self.all_resource();
        }
        if self.eat_word("keyspace") {
            return Ok(Resource::Keyspace(self.ident_expecting("keyspace name")?));
        }
        let names_follow =
            self.nth_is_ident(1) || matches!(self.nth(1).kind, TokenKind::Str { .. });
        if self.at_word("role") && names_follow && !self.nth_is_punct(2, Punct::Dot) {
            self.bump();
            return Ok(Resource::Role(self.role_name(false)?));
        }
        if self.at_word("function") && self.nth_is_ident(1) {
            self.bump();
            let name = self.function_name()?;
            let arg_types = self.parenthesized_list(|p| p.data_type())?;
            return Ok(Resource::Function { name, arg_types });
        }
        for (word, make) in [
            ("mbean", Resource::Mbean as fn(String) -> Resource),
            ("mbeans", Resource::Mbeans),
        ] {
            if self.at_word(word) && matches!(self.nth(1).kind, TokenKind::Str { .. }) {
                self.bump();
                return Ok(make(self.string_literal("MBean name")?));
            }
        }
        if self.at_word("table") || self.at_word("columnfamily") {
            self.bump();
        }
        Ok(Resource::Table(
            self.qualified_name_expecting("table name")?,
        ))
    }

    /// After `ALL`: `KEYSPACES`, `TABLES IN KEYSPACE ks`, `ROLES`,
    /// `FUNCTIONS [IN KEYSPACE ks]`, `MBEANS`.
    fn all_resource(&mut self) -> PResult<Resource> {
        if self.eat_word("keyspaces") {
            return Ok(Resource::AllKeyspaces);
        }
        if self.eat_word("roles") {
            return Ok(Resource::AllRoles);
        }
        if self.eat_word("mbeans") {
            return Ok(Resource::AllMbeans);
        }
        if self.eat_word("tables") {
            self.expect_word("in")?;
            self.expect_word("keyspace")?;
            let keyspace = self.ident_expecting("keyspace name")?;
            return Ok(Resource::AllTablesInKeyspace(keyspace));
        }
        if self.eat_word("functions") {
            if self.eat_words(&["in", "keyspace"]) {
                let keyspace = self.ident_expecting("keyspace name")?;
                return Ok(Resource::AllFunctionsInKeyspace(keyspace));
            }
            return Ok(Resource::AllFunctions);
        }
        Err(self.unexpected(&["KEYSPACES", "TABLES", "ROLES", "FUNCTIONS", "MBEANS"]))
    }

    /// A role name: an identifier (lower-cased unless quoted, or unless
    /// `keep_case`, as Cassandra does for user names and identities) or a string.
    fn role_name(&mut self, keep_case: bool) -> PResult<RoleName> {
        let token = self.peek().clone();
        match &token.kind {
            TokenKind::Str { value, .. } => {
                self.bump();
                Ok(RoleName::String(value.clone()))
            }
            TokenKind::Word(w) if keep_case && !is_reserved_keyword(w) => {
                self.bump();
                Ok(RoleName::Ident(Ident {
                    value: w.clone(),
                    span: token.span,
                }))
            }
            _ => Ok(RoleName::Ident(self.ident_expecting("role name")?)),
        }
    }

    /// `[WITH option (AND option)*]` of `CREATE ROLE` / `ALTER ROLE`.
    fn role_options(&mut self) -> PResult<Vec<RoleOption>> {
        if !self.eat_word("with") {
            return Ok(Vec::new());
        }
        let mut options = vec![self.role_option()?];
        while self.eat_word("and") {
            options.push(self.role_option()?);
        }
        Ok(options)
    }

    fn role_option(&mut self) -> PResult<RoleOption> {
        if self.eat_words(&["generated", "password"]) {
            return Ok(RoleOption::GeneratedPassword);
        }
        if self.eat_words(&["hashed", "password"]) {
            self.expect_punct(Punct::Eq)?;
            return Ok(RoleOption::HashedPassword(self.string_literal("password")?));
        }
        if self.eat_word("password") {
            self.expect_punct(Punct::Eq)?;
            return Ok(RoleOption::Password(self.string_literal("password")?));
        }
        if self.eat_word("options") {
            self.expect_punct(Punct::Eq)?;
            return Ok(RoleOption::Options(self.term()?));
        }
        for (word, make) in [
            ("superuser", RoleOption::Superuser as fn(bool) -> RoleOption),
            ("login", RoleOption::Login),
        ] {
            if self.eat_word(word) {
                self.expect_punct(Punct::Eq)?;
                return Ok(make(self.boolean()?));
            }
        }
        if self.eat_words(&["access", "to"]) {
            if self.eat_words(&["all", "datacenters"]) {
                return Ok(RoleOption::AccessToAllDatacenters);
            }
            self.expect_word("datacenters")?;
            return Ok(RoleOption::AccessToDatacenters(self.string_set()?));
        }
        if self.eat_words(&["access", "from"]) {
            if self.eat_words(&["all", "cidrs"]) {
                return Ok(RoleOption::AccessFromAllCidrs);
            }
            self.expect_word("cidrs")?;
            return Ok(RoleOption::AccessFromCidrs(self.string_set()?));
        }
        Err(self.unexpected(&[
            "PASSWORD",
            "HASHED PASSWORD",
            "GENERATED PASSWORD",
            "OPTIONS",
            "SUPERUSER",
            "LOGIN",
            "ACCESS",
        ]))
    }

    /// `[WITH [HASHED] PASSWORD 'p' | WITH GENERATED PASSWORD] [SUPERUSER | NOSUPERUSER]`.
    fn user_options(&mut self) -> PResult<(Option<UserPassword>, Option<bool>)> {
        let password = if self.eat_word("with") {
            Some(if self.eat_words(&["generated", "password"]) {
                UserPassword::GeneratedPassword
            } else if self.eat_words(&["hashed", "password"]) {
                UserPassword::HashedPassword(self.string_literal("password")?)
            } else {
                self.expect_word("password")?;
                UserPassword::Password(self.string_literal("password")?)
            })
        } else {
            None
        };
        let superuser = if self.eat_word("superuser") {
            Some(true)
        } else if self.eat_word("nosuperuser") {
            Some(false)
        } else {
            None
        };
        Ok((password, superuser))
    }

    /// `'{' 'a' (',' 'b')* '}'`.
    fn string_set(&mut self) -> PResult<Vec<String>> {
        self.expect_punct(Punct::LBrace)?;
        let items = self.comma_separated(|p| p.string_literal("string"))?;
        self.expect_punct(Punct::RBrace)?;
        Ok(items)
    }

    fn boolean(&mut self) -> PResult<bool> {
        match self.peek().kind {
            TokenKind::Boolean(b) => {
                self.bump();
                Ok(b)
            }
            _ => Err(self.unexpected(&["true", "false"])),
        }
    }

    /// A `'…'` (or `$$…$$`) string literal.
    pub(crate) fn string_literal(&mut self, what: &str) -> PResult<String> {
        match &self.peek().kind {
            TokenKind::Str { value, .. } => {
                let value = value.clone();
                self.bump();
                Ok(value)
            }
            _ => Err(self.unexpected(&[what])),
        }
    }
}
