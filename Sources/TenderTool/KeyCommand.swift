// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderCrypto

/// `tender key`: the ledger's signing key.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Show or rotate the key that signs the ledger.",
        subcommands: [Show.self, Rotate.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the active public key as PEM (or as a JWK with --jwk); creates the key on first use.")
        @OptionGroup var home: HomeOption
        @OptionGroup var broker: BrokerOption
        @Flag(help: "Print an RFC 8037 JWK with its RFC 7638 thumbprint as kid.") var jwk = false
        @Flag(help: "Print every public key that ever signed, one JWK per line.") var all = false

        func run() throws {
            if let client = broker.client {
                guard !all else { throw ValidationError("--all is not available through the broker") }
                let active = try client.activeKey()
                let text = try (jwk ? PublicKeyFormat.jwk : .pem).render(publicKey: active.publicKey, keyID: active.keyID)
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                return
            }
            let store = try StoreOpener.open(home: try StoreOpener.requiredHome(home))
            let active = try store.activeKey()
            if all {
                for key in try store.publicKeys() {
                    print(try PublicKeyFormat.jwk.render(publicKey: key.publicKey, keyID: key.keyID))
                }
                return
            }
            let text = try (jwk ? PublicKeyFormat.jwk : .pem).render(publicKey: active.publicKey, keyID: active.keyID)
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new signing key; the old key signs the hand-over and is destroyed, its public key kept.")
        @OptionGroup var home: HomeOption

        func run() throws {
            let store = try StoreOpener.open(home: try StoreOpener.requiredHome(home))
            print(try store.rotateKey().keyID)
        }
    }
}
