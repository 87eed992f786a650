// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Refuses a schema `tender` that another role could change under tenderd: one owned by another role than tenderd's
/// (its owner may drop, rename or replace every table in it, and read every person's rows), one holding an object
/// (table, view, sequence, function, type) owned by another role (a function or view of theirs could be resolved in place
/// of tenderd's, or read what it is given), or one where another role may create objects. Checked inside the schema's
/// migration transaction, before anything in it is read, each time tenderd opens a person's store. tenderd makes no trigger,
/// rule nor grant on its tables, and grants no one its functions (``PostgresSchema/opening``, ``PostgresSchema/payment``,
/// whose EXECUTE it revokes from PUBLIC): any is refused too (a trigger or rule runs its code inside tenderd's transactions, as tenderd's role; a grant
/// lets another role set `tender.uid` and read or write any person's rows).
enum PostgresSchemaOwner {
    /// Throws ``TenderError/store(_:)`` naming the schema's owner, or the first object another role owns or may create.
    static func check(_ db: PostgresDatabase) throws(TenderError) {
        let advice = "tenderd uses only a schema its own role owns with nothing in it of another's (docs/scale.md)"
        let owner = try db.statement(
            "SELECT pg_get_userbyid(nspowner), nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user) FROM pg_namespace WHERE nspname = 'tender'")
        guard try owner.step() else { throw .store("PostgreSQL: the schema tender is missing after it was created") }
        let (name, mine) = (owner.text(0) ?? "?", owner.text(1) == "t")
        _ = try owner.step()
        guard mine else { throw .store("PostgreSQL: the schema tender is owned by the role \(name), not by tenderd's: \(advice)") }
        let foreign = try db.statement(
            """
            SELECT kind, name, pg_get_userbyid(owner) FROM (
                SELECT 'relation' AS kind, relname::text AS name, relowner AS owner FROM pg_class WHERE relnamespace = 'tender'::regnamespace
                UNION ALL SELECT 'function', proname::text, proowner FROM pg_proc WHERE pronamespace = 'tender'::regnamespace
                UNION ALL SELECT 'type', typname::text, typowner FROM pg_type WHERE typnamespace = 'tender'::regnamespace
                UNION ALL SELECT 'operator', oprname::text, oprowner FROM pg_operator WHERE oprnamespace = 'tender'::regnamespace
            ) AS objects WHERE owner <> (SELECT oid FROM pg_roles WHERE rolname = current_user)
            UNION ALL
            SELECT 'trigger', tgname::text || ' on ' || relname::text, pg_get_userbyid(proowner)
            FROM pg_trigger JOIN pg_class ON pg_class.oid = tgrelid JOIN pg_proc ON pg_proc.oid = tgfoid
            WHERE relnamespace = 'tender'::regnamespace AND NOT tgisinternal
            UNION ALL
            SELECT 'rule', rulename::text || ' on ' || relname::text, pg_get_userbyid(relowner)
            FROM pg_rewrite JOIN pg_class ON pg_class.oid = ev_class WHERE relnamespace = 'tender'::regnamespace
            UNION ALL
            SELECT 'privilege ' || privilege_type || ' on', relname::text, CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(grantee) END
            FROM pg_class, aclexplode(relacl) WHERE relnamespace = 'tender'::regnamespace AND grantee <> relowner
            UNION ALL
            SELECT 'privilege ' || privilege_type || ' on the function', proname::text, CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(grantee) END
            FROM pg_proc, aclexplode(coalesce(proacl, acldefault('f', proowner))) WHERE pronamespace = 'tender'::regnamespace AND grantee <> proowner
            UNION ALL
            SELECT 'privilege to create objects', 'the schema', CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(grantee) END
            FROM pg_namespace, aclexplode(nspacl) WHERE nspname = 'tender' AND grantee <> nspowner AND privilege_type = 'CREATE'
            LIMIT 1
            """)
        if try foreign.step() {
            let (kind, object, role) = (foreign.text(0) ?? "?", foreign.text(1) ?? "?", foreign.text(2) ?? "?")
            _ = try foreign.step()
            throw .store("PostgreSQL: the schema tender holds a \(kind) \(object) of the role \(role), not of tenderd's: \(advice)")
        }
    }

    /// The person policy as the schema's creation makes it (``PostgresSchema/creation``), as `pg_get_expr` prints it.
    static let personPolicy = "(uid = (current_setting('tender.uid'::text))::bigint)"

    /// Throws ``TenderError/store(_:)`` naming the first table of the schema (but its version's) whose row security is off or
    /// not forced, that has a policy other than the two tenderd made, or lacks either of them. tenderd's two: `person`,
    /// permissive, and `person_only`, restrictive, each for every command and role, the person's rows (``personPolicy``) both
    /// read and written. Another policy (one more permissive policy, `FOR SELECT USING (true)`, made for a reporting role but
    /// given to PUBLIC) is refused: the schema is tenderd's alone. One added after this check, while the daemon runs, is
    /// ANDed with `person_only` (a permissive one widens nothing; a restrictive one can only narrow: refusals, not another
    /// person's rows), and refused at the next open. Without `person_only` (dropped or changed by the owner) a permissive
    /// policy added later would show and take every person's rows until then: refused, so the confinement is verified at
    /// each open. Row security turned off or not forced after this check is refused by every transaction
    /// (``PostgresSchema/rowSecurityHolds(_:reuseGrants:)``).
    static func checkRowSecurity(_ db: PostgresDatabase) throws(TenderError) {
        let loose = try db.statement(
            """
            SELECT c.relname::text, CASE WHEN NOT c.relrowsecurity OR NOT c.relforcerowsecurity THEN 'its row security off or not forced'
                WHEN foreign_policy.name IS NOT NULL THEN 'the policy ' || foreign_policy.name || ', not one of tenderd''s as it made them'
                ELSE 'not both of tenderd''s policies (person, permissive, and person_only, restrictive)' END
            FROM pg_catalog.pg_class c LEFT JOIN LATERAL (
                SELECT p.polname::text AS name FROM pg_catalog.pg_policy p WHERE p.polrelid = c.oid AND NOT coalesce(
                    ((p.polname = 'person' AND p.polpermissive) OR (p.polname = 'person_only' AND NOT p.polpermissive))
                    AND p.polcmd = '*' AND p.polroles = '{0}' AND pg_catalog.pg_get_expr(p.polqual, p.polrelid) = ?
                    AND pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) = ?, false)
                LIMIT 1) AS foreign_policy ON true
            WHERE c.relnamespace = 'tender'::pg_catalog.regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> 'tender_schema' AND (
                NOT c.relrowsecurity OR NOT c.relforcerowsecurity OR foreign_policy.name IS NOT NULL
                OR (SELECT count(*) FROM pg_catalog.pg_policy q WHERE q.polrelid = c.oid) <> 2)
            LIMIT 1
            """, [personPolicy, personPolicy])
        if try loose.step() {
            let (table, what) = (loose.text(0) ?? "?", loose.text(1) ?? "?")
            _ = try loose.step()
            throw .store(
                "PostgreSQL: the table tender.\(table) has \(what): tenderd's role could see every person's rows of it; keep row "
                    + "security forced with tenderd's two policies alone, person and person_only (docs/scale.md)")
        }
    }
}
