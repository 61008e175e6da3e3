import ArgumentParser
import NFCTapKit

// Option values parsed by ArgumentParser; the types and their parsing live in NFCTapKit.
extension InventoryFormat: ExpressibleByArgument {}
extension PairHandlerChoice: ExpressibleByArgument {}
