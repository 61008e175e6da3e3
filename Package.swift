// swift-tools-version: 6.0
// nfctap: Core NFC's reader model on Linux, over pcsc-lite and libnfc.
// The module shape follows docs/architecture.md; see README.md for the map.
import PackageDescription

let package = Package(
    name: "nfctap",
    platforms: [.macOS(.v13)],
    products: [
        // The Core NFC-compatible API: `import CoreNFCLinux` instead of `import CoreNFC`.
        .library(name: "CoreNFCLinux", targets: ["CoreNFCLinux"]),
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "ZebraPrinter", targets: ["ZebraPrinter"]),
        .library(name: "TagEmulation", targets: ["TagEmulation"]),
        .executable(name: "nfctap", targets: ["nfctap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // FileDescriptor: reads and writes that retry EINTR and short writes, in one place.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        // pcsc-lite (libpcsclite-dev) is a C target, not a pkg-config system library: its .pc adds
        // `-pthread`, a flag SwiftPM refuses with a warning on every build (Sources/CPCSCLite/include
        // forwards the includes its headers make to /usr/include/PCSC).
        .target(name: "CPCSCLite", linkerSettings: [.linkedLibrary("pcsclite")]),
        // No pkgConfig for libnfc: Debian's libnfc.pc lists libusb under Requires (not .private), so
        // nfctap would link libusb-0.1 without using a symbol of it; the headers are in /usr/include
        // and the module map links libnfc.
        .systemLibrary(name: "CLibNFC", providers: [.apt(["libnfc-dev"])]),
        // libsystemd (sd-bus, sd-id128; libsystemd-dev) and libmosquitto (libmosquitto-dev) are opened
        // on first use: with them, every command would load and relocate OpenSSL, libgcrypt and three
        // compression libraries that only the D-Bus, MQTT and station-id paths use. Each C target
        // defines the functions its wrapper calls as forwarders (CLazyLibrary).
        .target(name: "CLazyLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CSDBus", dependencies: ["CLazyLibrary"]),
        .target(name: "CMosquitto", dependencies: ["CLazyLibrary"]),

        // Thin typed wrappers: every C call of a library lives in one module.
        .target(name: "PCSC", dependencies: ["CPCSCLite"]),
        .target(name: "LibNFC", dependencies: ["CLibNFC"]),
        .target(name: "MQTT", dependencies: ["CMosquitto"]),
        .target(name: "SDBus", dependencies: ["CSDBus"]),
        // posix_spawn set up once (signals, process group or session, file actions) for every program nfctap starts.
        .target(name: "ProcessSpawn"),

        // Pure Swift: codecs and tag logic, testable without a reader.
        // The one escaping of text from tags, readers and the network on its way to any output.
        .target(name: "SafeText"),
        .target(name: "NDEF"),
        .target(name: "NFCTags", dependencies: ["NDEF"]),
        .target(name: "ZebraPrinter", dependencies: ["NDEF"]),
        // Durable record files (inventory, kiosk), CSV cells made safe, the one JSON writer.
        .target(name: "RecordOutput", dependencies: ["SafeText", .product(name: "SystemPackage", package: "swift-system")]),

        // Readers, sessions, pairing.
        // The reader model without a C library: backend protocols, tags, events, errors, lanes, trace.
        .target(name: "ReaderCore", dependencies: ["NFCTags", "NDEF", "SafeText", .product(name: "SystemPackage", package: "swift-system")]),
        // The PC/SC and libnfc backends.
        .target(name: "NFCReaders", dependencies: ["ReaderCore", "NFCTags", "NDEF", "PCSC", "LibNFC"]),
        .target(name: "CoreNFCLinux", dependencies: ["ReaderCore", "NFCReaders", "NFCTags", "NDEF", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Pairing", dependencies: ["ZebraPrinter", "SDBus", "ProcessSpawn", "RecordOutput"]),
        // Desktop entries, Exec lines, URL claims, launch files: `nfctap agent` (background reading).
        .target(name: "DesktopIntegration", dependencies: ["ProcessSpawn", .product(name: "SystemPackage", package: "swift-system")]),

        // Fleet: records of a JSONL file published to an MQTT broker, nothing lost (README "Fleet").
        .target(name: "Fleet", dependencies: ["MQTT", "RecordOutput", "CSDBus", "SafeText",
                                             .product(name: "SystemPackage", package: "swift-system")]),

        // Virtual tags, the vpcd card client and the PN532 emulator (tests, `demo`, `emulate`).
        .target(name: "TagEmulation", dependencies: ["ReaderCore", "NFCTags", "NDEF", .product(name: "SystemPackage", package: "swift-system")]),

        // The application: kiosk, inventory, pairing verdicts, the desktop agent, JSON output,
        // journal logging, the soak harness. The `nfctap` executable only parses commands.
        .target(
            name: "NFCTapKit",
            dependencies: [
                "NDEF", "NFCTags", "ReaderCore", "NFCReaders", "CoreNFCLinux", "ZebraPrinter", "Pairing", "TagEmulation", "RecordOutput",
                "DesktopIntegration", "Fleet", "SDBus", "SafeText",
                .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "nfctap",
            dependencies: [
                "NFCTapKit", "SafeText",
                "NDEF", "NFCTags", "ReaderCore", "NFCReaders", "CoreNFCLinux", "ZebraPrinter", "Pairing", "TagEmulation", "RecordOutput",
                "DesktopIntegration", "Fleet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // iOS-style programs on the Core NFC API (Examples/README.md): the reader class of each is
        // iOS code with `import CoreNFCLinux`; run by the system tests against pcscd + vpcd.
        .executableTarget(name: "NDEFReadWriteExample", dependencies: ["CoreNFCLinux"], path: "Examples/NDEFReadWrite"),
        .executableTarget(name: "SingleReadExample", dependencies: ["CoreNFCLinux"], path: "Examples/SingleRead"),
        .executableTarget(name: "InventoryExample", dependencies: ["CoreNFCLinux"], path: "Examples/Inventory"),
        .executableTarget(name: "TagReaderExample", dependencies: ["CoreNFCLinux"], path: "Examples/TagReader"),
        .executableTarget(name: "BackgroundTagReadingExample", dependencies: ["CoreNFCLinux"],
                          path: "Examples/BackgroundTagReading", exclude: ["nfctap-example-tickets.desktop"]),
        .executableTarget(name: "NDEFWrapperExample", dependencies: ["CoreNFCLinux"], path: "Examples/NDEFWrapper"),
        .executableTarget(name: "AsyncNDEFExample", dependencies: ["CoreNFCLinux"], path: "Examples/AsyncNDEF"),
        .executableTarget(name: "ISO7816ReaderExample", dependencies: ["CoreNFCLinux"], path: "Examples/ISO7816Reader"),
        .executableTarget(name: "UltralightRawExample", dependencies: ["CoreNFCLinux"], path: "Examples/UltralightRaw"),
        .executableTarget(name: "ChainedAPDUExample", dependencies: ["CoreNFCLinux"], path: "Examples/ChainedAPDU"),
        .executableTarget(name: "TagInfoPluginExample", dependencies: ["CoreNFCLinux"], path: "Examples/TagInfoPlugin"),

        .executableTarget(
            name: "nfctap-bench",
            dependencies: ["NDEF", "NFCTags", "ReaderCore", "NFCReaders", "TagEmulation", "ZebraPrinter", "CoreNFCLinux", "PCSC", "Fleet", "MQTT"],
            path: "Benchmarks/nfctap-bench"
        ),
        // The kiosk soak (scripts/soak.sh): N virtual taps in one process, resources sampled.
        .executableTarget(
            name: "nfctap-soak",
            dependencies: ["NFCTapKit", "CoreNFCLinux", "NDEF", "ReaderCore", "TagEmulation",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/nfctap-soak"
        ),

        // What several test targets share (recorders, the seeded generator, the fault matrix): one copy.
        .target(name: "TestSupport", dependencies: ["NDEF", "NFCTags", "TagEmulation"], path: "Tests/TestSupport"),
        // The application's in-process harnesses (kiosk, inventory over virtual readers), for its tests in both rings.
        .target(name: "NFCTapKitTestSupport",
                dependencies: ["NFCTapKit", "CoreNFCLinux", "NDEF", "ReaderCore", "RecordOutput", "TagEmulation", "TestSupport"],
                path: "Tests/NFCTapKitTestSupport"),
        // Ring 1 (unit) and ring 2 (protocol) tests: no services.
        .testTarget(name: "NDEFTests", dependencies: ["NDEF", "TestSupport"]),
        .testTarget(name: "ZebraPrinterTests", dependencies: ["ZebraPrinter", "NDEF", "TestSupport"]),
        .testTarget(name: "NFCTagsTests", dependencies: ["NFCTags", "TagEmulation", "NDEF", "TestSupport"]),
        .testTarget(name: "CoreNFCLinuxTests", dependencies: ["CoreNFCLinux", "ReaderCore", "NFCTags", "TagEmulation", "NDEF", "TestSupport"]),
        .testTarget(name: "NFCReadersTests", dependencies: ["ReaderCore", "NFCReaders", "PCSC", "CPCSCLite", "LibNFC", "NFCTags", "TagEmulation"]),
        .testTarget(name: "PairingTests", dependencies: ["Pairing", "ZebraPrinter", "SDBus"]),
        .testTarget(name: "SDBusTests", dependencies: ["SDBus", "CSDBus"]),
        .testTarget(name: "ProcessSpawnTests", dependencies: ["ProcessSpawn"]),
        .testTarget(name: "DesktopIntegrationTests", dependencies: ["DesktopIntegration", "CoreNFCLinux"]),
        .testTarget(name: "RecordOutputTests", dependencies: ["RecordOutput", "SafeText"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "CMosquitto", "TestSupport"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet", "MQTT", "RecordOutput", "TestSupport"]),
        // The application's logic without daemons: kiosk configuration and log, inventory output, agent taps, soak verdicts.
        .testTarget(name: "NFCTapKitTests", dependencies: ["NFCTapKit", "CoreNFCLinux", "ReaderCore", "NDEF", "DesktopIntegration",
                                                           "RecordOutput", "Fleet", "TagEmulation", "TestSupport", "NFCTapKitTestSupport"]),
        // Ring 3 (system): real pcscd + vpcd, libnfc + PN532 emulator, BlueZ mock, the CLI as a user runs it
        // (the built `nfctap` binary, found by path: see SystemEnvironment.cliPath).
        // Started by scripts/test.sh; each suite is skipped with a clear reason when its daemon is absent.
        .testTarget(
            name: "SystemTests",
            dependencies: ["NFCTags", "TagEmulation", "NDEF", "PCSC", "LibNFC", "ReaderCore", "NFCReaders", "Pairing", "ZebraPrinter",
                           "CoreNFCLinux", "RecordOutput", "NFCTapKit", "DesktopIntegration", "Fleet", "MQTT", "SDBus", "TestSupport",
                           "NFCTapKitTestSupport"],
            exclude: ["Fixtures/bluez_zebra.py"]
        ),
    ],
    // Every target compiles in the Swift 6 language mode (strict concurrency checking).
    swiftLanguageModes: [.v6]
)
