import CoreNFCLinux
import DesktopIntegration
import Foundation
import Pairing
import SDBus
import ZebraPrinter

/// Carries out a tap's action when the user invokes it: launches the claiming application with
/// the message, opens the URL with the default handler (`xdg-open`, or the OpenURI portal inside
/// a Flatpak sandbox), or runs the pairing handler. Nothing from the tag goes through a shell:
/// every program gets its arguments as argv.
package struct TapDispatcher {
    package let environment: [String: String]
    package let pairWith: PairHandlerChoice
    package let pairingOptions: PairingOptions
    /// Where `/.flatpak-info` is looked for (tests point it elsewhere).
    package var sandboxMarker = "/.flatpak-info"

    /// Inside a Flatpak sandbox: `/.flatpak-info` exists, or `FLATPAK_ID` is set (flatpak run sets it).
    package var isSandboxed: Bool {
        FileManager.default.fileExists(atPath: sandboxMarker) || !(environment["FLATPAK_ID"] ?? "").isEmpty
    }

    package enum Outcome {
        /// Done; the text says what happened (for the log).
        case done(String)
        /// Pairing runs in the background (it can take a minute).
        case pairingStarted
    }

    /// - Throws: `LaunchError` or `DBusError` when the program or portal cannot be reached.
    package func perform(_ tap: AgentTap, bus: DBusConnection, jsonText: String,
                 pairingFinished: @escaping @Sendable (String) -> Void) throws -> Outcome {
        switch tap.action {
        case nil:
            return .done("nothing to do")
        case let .launch(claim, url)?:
            let store = try LaunchPayloadStore(environment: environment)
            let files = try store.write(ndef: tap.report.ndefBytes ?? [], json: jsonText)
            var env = environment
            env[LaunchPayloadStore.fileEnvironmentKey] = files.ndef
            env[LaunchPayloadStore.jsonEnvironmentKey] = files.json
            env[LaunchPayloadStore.urlEnvironmentKey] = url
            let argv = claim.application.argv(url: url, file: files.ndef)
            let pid = try ProgramLauncher.launch(argv, environment: env)
            return .done("launched \(claim.application.id) (pid \(pid))")
        case let .openWithDefault(url)?:
            if isSandboxed {
                // org.freedesktop.portal.OpenURI.OpenURI(s parent_window, s uri, a{sv} options)
                _ = try bus.call(destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                                 interface: "org.freedesktop.portal.OpenURI", member: "OpenURI",
                                 arguments: [.string(""), .string(url), .properties([:])], timeout: .seconds(10))
                return .done("opened through the OpenURI portal")
            }
            let pid = try ProgramLauncher.launch(["xdg-open", url], environment: environment)
            return .done("xdg-open started (pid \(pid))")
        case let .pair(identity)?:
            let handler = try pairWith.makeHandler()
            let options = pairingOptions
            Thread.detachNewThread {
                let text: String
                do {
                    switch try handler.pair(identity, options: options) {
                    case let .paired(p): text = "paired \(identity.serial) at \(p.address)"
                    case let .alreadyPaired(p): text = "\(identity.serial) already paired at \(p.address)"
                    case .printed: text = "identity of \(identity.serial) written"
                    case let .handedOff(outcome): text = "pairing program exited with status \(outcome.exitStatus)"
                    }
                } catch {
                    text = "pairing \(identity.serial) failed: \(error)"
                }
                pairingFinished(text)
            }
            return .pairingStarted
        }
    }
}
