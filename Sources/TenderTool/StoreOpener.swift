// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TenderAuth
import TenderCore
import TenderCrypto
import TenderStore
import TenderWiring

/// Opens the store and the engine of a home the way the library does: through ``EngineFactory``.
enum StoreOpener {
    /// Opens (creating when missing) the store of `home`; `newLedger` allows a new ledger where one was.
    static func open(home: String, newLedger: Bool = false) throws(TenderError) -> SQLiteStore {
        try EngineFactory.openStore(home: home, access: .readWrite(newLedger: newLedger))
    }

    /// Opens the store of `home` read-only: creates and changes nothing, works on a read-only home,
    /// and a home or store that does not exist is an error.
    static func openReadOnly(home: String) throws(TenderError) -> SQLiteStore {
        try EngineFactory.openStore(home: home, access: .readOnly)
    }

    /// An engine on `store` with the default policy (every payment re-authenticates). The PAM stack is
    /// the system's service `tender`, except in a demo home (one `tender demo` made, holding
    /// pam.d/tender-demo): there it is the demo's own stack, in testing mode, said on standard error
    /// and in the audit. The shipped tool takes no PAM service or directory from its caller.
    static func engine(
        store: SQLiteStore, home: String, customIntents: CustomIntentCatalog? = nil, today: @escaping @Sendable () -> LocalDate = { WallClock.today() }
    ) throws(TenderError) -> Engine {
        var policy = AuthenticationPolicy()
        if let demo = DemoPAMStack.existing(home: home) {
            policy.service = DemoPAMStack.service
            policy.configDirectory = demo
            policy.testing = true
            _ = "tender: testing mode: the demo PAM stack of this demo home (\(demo)), not your system login\n".withCString { write(2, $0, strlen($0)) }
        }
        return try engine(store: store, home: home, policy: policy, customIntents: customIntents, today: today)
    }

    /// An engine on `store` (open on `home`) with `policy`, assembled as the library assembles one.
    static func engine(
        store: SQLiteStore, home: String, policy: AuthenticationPolicy, customIntents: CustomIntentCatalog? = nil,
        today: @escaping @Sendable () -> LocalDate = { WallClock.today() }
    ) throws(TenderError) -> Engine {
        try EngineFactory.assemble(
            EngineConfiguration(home: home, authentication: policy), store: store, customIntents: customIntents, clock: CommandClock(day: today)
        ).engine
    }

    /// The custom intents of `options`' files with its handler program as their host; nil without files.
    static func customIntents(_ options: CustomIntentOptions) throws(TenderError) -> CustomIntentCatalog? {
        guard !options.intents.isEmpty else { return nil }
        let catalog = try EngineFactory.customIntents(options.intents)
        catalog.setHost(options.handler.map { ProgramIntentHost(program: $0, timeoutSeconds: options.handlerTimeout) })
        return catalog
    }

    /// The home from `--home`/`TENDER_HOME`, or a usage error.
    static func requiredHome(_ option: HomeOption) throws -> String {
        guard let home = option.resolved else { throw ValidationError("set --home DIR or TENDER_HOME") }
        return home
    }
}
