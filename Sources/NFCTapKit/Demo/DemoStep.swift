import Foundation

/// `nfctap demo`'s steps.
package enum DemoStep {
    /// How long a step waits for the virtual stack before it counts as failed.
    package static let timeout: TimeInterval = 5
}
