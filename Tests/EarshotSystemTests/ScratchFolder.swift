import Foundation

/// A fresh folder in the temporary folder for one test's files, removed by `remove()`.
struct ScratchFolder {
    let path: String

    /// Creates `<temporary folder>/<prefix><UUID>`.
    init(_ prefix: String = "earshot-test-") throws {
        path = NSTemporaryDirectory() + prefix + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
