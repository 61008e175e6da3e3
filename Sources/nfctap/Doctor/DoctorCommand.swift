import ArgumentParser
import NFCTapKit

struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the machine for what stops NFC readers working, and print the exact fix.",
        discussion: """
            Checks, in this order: pcscd and the CCID driver installed; the reader access rules
            (60-nfctap.rules) installed for udev; the kernel's nfc/pn533/pn533_usb modules
            blacklisted, and none of them loaded or holding a reader; pcscd running and the readers
            it sees; USB permissions of known readers; what the drivers refuse (ACR122U firmware
            2.05 in libccid, escape commands without ifdDriverOptions 0x0001, a reader pcscd holds
            that libnfc cannot then open); libnfc devices configured and their ports
            accessible; a BlueZ adapter present and powered.

            Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed.
            """
    )

    func run() async throws {
        if !DoctorReport.run() { throw CLIError.reported(status: ExitStatus.failure) }
    }
}
