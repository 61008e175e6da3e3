import Foundation
import NFCTags
import Synchronization
import TagEmulation
import Testing
import TestSupport

/// The fault matrix on the PC/SC path (ACR122U and Identiv personalities), in process.
/// Cells: model × operation × exchange index × fault (see `FaultMatrix`).
@Suite("Fault matrix: PC/SC path (ACR122U, Identiv)")
struct FaultMatrixTests {
    static let profiles: [PCSCReaderProfile] = [.acr122u, .identiv]

    @Test("every fault at every exchange: typed error or right data, tear-safe, path works again",
          arguments: FaultMatrix.Model.allCases, FaultMatrix.Operation.allCases)
    func matrix(_ model: FaultMatrix.Model, _ operation: FaultMatrix.Operation) throws {
        for profile in Self.profiles {
            let (cells, failed) = try FaultMatrix.run(model, operation) { PCSCMatrixPath(tag: $0, profile: profile) }
            #expect(cells >= FaultMatrix.Fault.allCases.count, "\(model) \(operation) via \(profile): no cells")
            for failure in failed.prefix(20) { Issue.record("\(profile): \(failure)") }
            if failed.count > 20 { Issue.record("\(profile): … \(failed.count - 20) more failed cells") }
            FaultMatrixCount.shared.add(cells, "pcsc-\(profile) \(model) \(operation)")
        }
    }

    @Test("a tag that leaves and comes back mid-write is written again cleanly on the same reader")
    func rewriteAfterTear() throws {
        // The write torn in the middle of the message pages, then completed on the same reader.
        for model in FaultMatrix.Model.allCases {
            let tag = try model.makeTag()
            let path = PCSCMatrixPath(tag: tag, profile: .identiv)
            path.plan.reset(leaveFieldAfter: 6)
            #expect(throws: TagError.tagLost, "\(model)") { try path.operations(record: nil).writeNDEF(model.newMessage) }
            path.represent()
            try path.operations(record: nil).writeNDEF(model.newMessage)
            #expect(try path.operations(record: nil).readNDEF() == model.newMessage, "\(model)")
        }
    }
}

/// Totals the cells the parameterized cases ran (printed for the benchmark report).
final class FaultMatrixCount: Sendable {
    static let shared = FaultMatrixCount()
    private let total = Atomic(0)

    func add(_ cells: Int, _ what: String) {
        let sum = total.wrappingAdd(cells, ordering: .relaxed).newValue
        print("fault-matrix cells: \(what): \(cells) (running total \(sum))")
    }
}
