// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore
import TenderStore
import TenderWiring

/// What a `tender_engine *` points to: the engine and the ports the C API
/// administers it through (assembled by ``EngineFactory``; no export touches
/// the store itself). Retained once per C reference and once per open session.
final class EngineHandle: CHandle {
    let assembled: AssembledEngine

    var engine: Engine { assembled.engine }
    var directoryAdmin: any DirectoryAdmin { assembled.directoryAdmin }
    var ledgerAdmin: any LedgerAdmin { assembled.ledgerAdmin }

    /// Opens the engine `configuration` describes; with `host`, the directory
    /// and the payments are the host's (its callbacks), the ledger stays Tender's.
    init(configuration: EngineConfiguration, host: HostCallbacks? = nil) throws(TenderError) {
        let ports = host.map { callbacks in
            HostPorts(directory: { store in HostDirectory(callbacks: callbacks, store: store) }, backend: HostBackend(callbacks: callbacks))
        }
        assembled = try EngineFactory.assemble(configuration, host: ports)
    }

    /// What parsing text may look at: the engine's directory, the shortcuts, the app vocabulary, today.
    func parseContext() throws(TenderError) -> ParseContext { try assembled.parseContext() }

    static let argumentName = "engine"
    /// The process that opened it (``CHandle/process``).
    let process = getpid()
}
