//! Strategies for roles, users, permissions, identities and triggers.

use cqlmodel_cql::ast::*;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

use super::{data_type, ident, qualified_name};

fn string() -> impl Strategy<Value = String> {
    "[a-z0-9 ':/.*=-]{0,12}"
}

/// A role name: a (lower-cased or quoted) identifier or a string.
fn role_name() -> impl Strategy<Value = RoleName> {
    prop_oneof![
        3 => ident().prop_map(RoleName::Ident),
        1 => string().prop_map(RoleName::String),
    ]
}

/// A user name or identity: unquoted names keep their case.
fn user_name() -> impl Strategy<Value = RoleName> {
    prop_oneof![
        2 => "[A-Za-z][A-Za-z0-9_]{0,6}"
            .prop_filter("reserved", |w| !cqlmodel_cql::keywords::is_reserved_keyword(w))
            .prop_map(|w| RoleName::Ident(Ident::new(w))),
        1 => role_name(),
    ]
}

fn role_option() -> impl Strategy<Value = RoleOption> {
    let map = (string(), string()).prop_map(|(k, v)| Term {
        kind: TermKind::Map(vec![(
            Term {
                kind: TermKind::Literal(Literal::String(k)),
                span: Span::default(),
            },
            Term {
                kind: TermKind::Literal(Literal::String(v)),
                span: Span::default(),
            },
        )]),
        span: Span::default(),
    });
    prop_oneof![
        string().prop_map(RoleOption::Password),
        string().prop_map(RoleOption::HashedPassword),
        Just(RoleOption::GeneratedPassword),
        map.prop_map(RoleOption::Options),
        any::<bool>().prop_map(RoleOption::Superuser),
        any::<bool>().prop_map(RoleOption::Login),
        Just(RoleOption::AccessToAllDatacenters),
        vec(string(), 1..3).prop_map(RoleOption::AccessToDatacenters),
        Just(RoleOption::AccessFromAllCidrs),
        vec(string(), 1..3).prop_map(RoleOption::AccessFromCidrs),
    ]
}

fn user_password() -> impl Strategy<Value = UserPassword> {
    prop_oneof![
        string().prop_map(UserPassword::Password),
        string().prop_map(UserPassword::HashedPassword),
        Just(UserPassword::GeneratedPassword),
    ]
}

fn permissions() -> impl Strategy<Value = Permissions> {
    prop_oneof![
        1 => Just(Permissions::All),
        3 => vec(select(Permission::ALL.to_vec()), 1..4).prop_map(Permissions::Some),
    ]
}

fn resource() -> impl Strategy<Value = Resource> {
    prop_oneof![
        Just(Resource::AllKeyspaces),
        ident().prop_map(Resource::Keyspace),
        qualified_name().prop_map(Resource::Table),
        ident().prop_map(Resource::AllTablesInKeyspace),
        Just(Resource::AllRoles),
        role_name().prop_map(Resource::Role),
        Just(Resource::AllFunctions),
        ident().prop_map(Resource::AllFunctionsInKeyspace),
        (qualified_name(), vec(data_type(), 0..3))
            .prop_map(|(name, arg_types)| Resource::Function { name, arg_types }),
        Just(Resource::AllMbeans),
        string().prop_map(Resource::Mbean),
        string().prop_map(Resource::Mbeans),
    ]
}

fn access_statement() -> impl Strategy<Value = AccessStatement> {
    let options = || vec(role_option(), 0..3);
    prop_oneof![
        (any::<bool>(), role_name(), options()).prop_map(|(ine, name, options)| {
            AccessStatement::CreateRole {
                if_not_exists: ine,
                name,
                options,
            }
        }),
        (any::<bool>(), role_name(), options()).prop_map(|(ie, name, options)| {
            AccessStatement::AlterRole {
                if_exists: ie,
                name,
                options,
            }
        }),
        (any::<bool>(), role_name()).prop_map(|(ie, name)| AccessStatement::DropRole {
            if_exists: ie,
            name
        }),
        (option::of(role_name()), any::<bool>())
            .prop_map(|(of, recursive)| AccessStatement::ListRoles { of, recursive }),
        (
            any::<bool>(),
            user_name(),
            option::of(user_password()),
            option::of(any::<bool>())
        )
            .prop_map(
                |(ine, name, password, superuser)| AccessStatement::CreateUser {
                    if_not_exists: ine,
                    name,
                    password,
                    superuser,
                }
            ),
        (any::<bool>(), user_name()).prop_map(|(ie, name)| AccessStatement::DropUser {
            if_exists: ie,
            name
        }),
        Just(AccessStatement::ListUsers),
        Just(AccessStatement::ListSuperusers),
        (permissions(), resource(), role_name()).prop_map(|(permissions, resource, role)| {
            AccessStatement::GrantPermissions {
                permissions,
                resource,
                role,
            }
        }),
        (permissions(), resource(), role_name()).prop_map(|(permissions, resource, role)| {
            AccessStatement::RevokePermissions {
                permissions,
                resource,
                role,
            }
        }),
        (
            permissions(),
            option::of(resource()),
            option::of(role_name()),
            any::<bool>()
        )
            .prop_map(|(permissions, resource, of, recursive)| {
                AccessStatement::ListPermissions {
                    permissions,
                    resource,
                    of,
                    recursive,
                }
            }),
        (role_name(), role_name())
            .prop_map(|(role, grantee)| AccessStatement::GrantRole { role, grantee }),
        (role_name(), role_name())
            .prop_map(|(role, revokee)| AccessStatement::RevokeRole { role, revokee }),
        (any::<bool>(), user_name(), user_name()).prop_map(|(ine, identity, role)| {
            AccessStatement::AddIdentity {
                if_not_exists: ine,
                identity,
                role,
            }
        }),
        (any::<bool>(), user_name()).prop_map(|(ie, identity)| AccessStatement::DropIdentity {
            if_exists: ie,
            identity,
        }),
    ]
}

/// Access statements and triggers.
pub fn statement_kind() -> impl Strategy<Value = StatementKind> {
    prop_oneof![
        4 => access_statement().prop_map(StatementKind::Access),
        1 => (any::<bool>(), ident(), qualified_name(), string()).prop_map(
            |(ine, name, table, class)| StatementKind::CreateTrigger(CreateTrigger {
                if_not_exists: ine,
                name,
                table,
                class,
            })
        ),
        1 => (any::<bool>(), ident(), qualified_name()).prop_map(|(ie, name, table)| {
            StatementKind::DropTrigger(DropTrigger {
                if_exists: ie,
                name,
                table,
            })
        }),
    ]
}
