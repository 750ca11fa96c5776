//! Roles, users, permissions, identities and triggers: what the parser builds.

mod common;

use common::assert_round_trip;
use cqlmodel_cql::ast::*;
use cqlmodel_cql::parse_statement;

fn access(src: &str) -> AccessStatement {
    let statement = match parse_statement(src) {
        Ok(s) => s,
        Err(e) => panic!("{src}: {e}"),
    };
    assert_round_trip(&statement, src);
    match statement.kind {
        StatementKind::Access(a) => a,
        other => panic!("not an access statement: {other:?}"),
    }
}

fn role(name: &str) -> RoleName {
    RoleName::Ident(Ident::new(name))
}

#[test]
fn role_names_are_lower_cased_but_user_names_keep_their_case() {
    let AccessStatement::CreateRole { name, .. } = access("CREATE ROLE Reader") else {
        panic!("not CREATE ROLE");
    };
    assert_eq!(name, role("reader"));
    let AccessStatement::CreateUser { name, .. } = access("CREATE USER Alice") else {
        panic!("not CREATE USER");
    };
    assert_eq!(name, role("Alice"));
    assert_eq!(
        access("CREATE USER Alice WITH PASSWORD 'x'").to_string(),
        "CREATE USER \"Alice\" WITH PASSWORD 'x'"
    );
}

#[test]
fn grant_reads_permissions_or_a_role() {
    let AccessStatement::GrantPermissions {
        permissions,
        resource,
        role: grantee,
    } = access("GRANT SELECT, UNMASK PERMISSION ON KEYSPACE ks TO r")
    else {
        panic!("not a permission grant");
    };
    assert_eq!(
        permissions,
        Permissions::Some(vec![Permission::Select, Permission::Unmask])
    );
    assert_eq!(resource, Resource::Keyspace(Ident::new("ks")));
    assert_eq!(grantee, role("r"));
    // `unmask` is not reserved: without ON it names a role.
    assert_eq!(
        access("GRANT unmask TO r"),
        AccessStatement::GrantRole {
            role: role("unmask"),
            grantee: role("r"),
        }
    );
    assert_eq!(
        access("GRANT ALL ON ALL FUNCTIONS IN KEYSPACE ks TO r").to_string(),
        "GRANT ALL PERMISSIONS ON ALL FUNCTIONS IN KEYSPACE ks TO r"
    );
}

#[test]
fn resources_of_every_kind() {
    let resource = |src: &str| match access(src) {
        AccessStatement::ListPermissions { resource, .. } => resource,
        other => panic!("{src}: {other:?}"),
    };
    assert_eq!(
        resource("LIST ALL ON ks.t"),
        Some(Resource::Table(QualifiedName {
            keyspace: Some(Ident::new("ks")),
            name: Ident::new("t"),
            span: Span::default(),
        }))
    );
    assert_eq!(resource("LIST ALL ON ALL ROLES"), Some(Resource::AllRoles));
    assert_eq!(
        resource("LIST ALL ON ROLE 'admin'"),
        Some(Resource::Role(RoleName::String("admin".into())))
    );
    // A table named `role` is a table.
    assert!(matches!(
        resource("LIST ALL ON role"),
        Some(Resource::Table(_))
    ));
    assert!(matches!(
        resource("LIST EXECUTE ON FUNCTION ks.f(int, list<text>)"),
        Some(Resource::Function { ref arg_types, .. }) if arg_types.len() == 2
    ));
    assert_eq!(resource("LIST ALL"), None);
}

#[test]
fn identities_and_triggers() {
    assert_eq!(
        access("ADD IDENTITY IF NOT EXISTS 'spiffe://x' TO ROLE app"),
        AccessStatement::AddIdentity {
            if_not_exists: true,
            identity: RoleName::String("spiffe://x".into()),
            role: role("app"),
        }
    );
    let Ok(statement) = parse_statement("CREATE TRIGGER t1 ON ks.t USING 'org.example.T'") else {
        panic!("trigger did not parse");
    };
    assert_round_trip(&statement, "trigger");
    assert!(
        matches!(&statement.kind, StatementKind::CreateTrigger(t) if t.class == "org.example.T"),
        "{statement:?}"
    );
}
