import Foundation
import Testing

@testable import EarshotSystem

/// Whole results kept under a key: a result comes back only whole and only for its own key, and the bounds keep
/// the most recently used.
@Suite("result store")
struct ResultStoreTests {
    /// A scratch cache folder.
    typealias Folder = ScratchFolder

    @Test func aResultComesBackOnlyForItsOwnKey() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = ResultStore(cacheFolder: folder.path)
        let payload = Data("the run's output\n".utf8)
        #expect(store.load(key: "key A") == nil)
        #expect(store.store(payload, key: "key A"))
        #expect(store.load(key: "key A") == payload)
        #expect(store.load(key: "key B") == nil)
        // Another key written into key A's file (as a file-name collision would) is not key A's result.
        try ResultStore.encode(Data("other".utf8), key: "key B").write(
            to: URL(fileURLWithPath: store.path(for: "key A")))
        #expect(store.load(key: "key A") == nil)
        #expect(store.usage().files == 1)
    }

    @Test(arguments: ["truncated", "flipped", "empty", "longer"])
    func aDamagedResultIsAMiss(damage: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = ResultStore(cacheFolder: folder.path)
        #expect(store.store(Data(repeating: 0x41, count: 300), key: "key"))
        let path = store.path(for: "key")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ResultStore.decode(Data(bytes), key: "key") != nil)
        switch damage {
        case "truncated": bytes.removeLast(9)
        case "flipped": bytes[bytes.count / 2] ^= 0x01
        case "empty": bytes = []
        default: bytes += [0]
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(store.load(key: "key") == nil)
    }

    @Test func theLeastRecentlyUsedResultsGoBeyondTheCountBound() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = ResultStore(cacheFolder: folder.path, limit: 3)
        for index in 0..<3 { #expect(store.store(Data([UInt8(index)]), key: "key \(index)")) }
        #expect(store.load(key: "key 0") != nil)  // now the most recently used
        #expect(store.store(Data([3]), key: "key 3"))
        #expect(store.usage().files == 3)
        #expect(store.load(key: "key 1") == nil, "the least recently used was kept")
        for index in [0, 2, 3] { #expect(store.load(key: "key \(index)") != nil, "key \(index) went") }
    }

    @Test func theByteBoundHoldsAndAResultTooLargeIsNotKept() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = ResultStore(cacheFolder: folder.path, byteLimit: 4000)
        for index in 0..<4 { #expect(store.store(Data(repeating: 1, count: 1000), key: "key \(index)")) }
        #expect(store.usage().bytes <= 4000)
        #expect(store.usage().files == 3)
        #expect(store.load(key: "key 0") == nil)
        #expect(!store.store(Data(repeating: 1, count: 1001), key: "large"))
        #expect(store.load(key: "large") == nil)
        #expect(store.usage().files == 3)
    }

    @Test func clearRemovesOnlyResults() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = ResultStore(cacheFolder: folder.path)
        #expect(store.store(Data("x".utf8), key: "one"))
        #expect(store.store(Data("y".utf8), key: "two"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: store.folder + "/notes.txt"))
        let removed = store.clear()
        #expect(removed.files == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder) == ["notes.txt"])
        try FileManager.default.removeItem(atPath: store.folder + "/notes.txt")
        #expect(store.store(Data("x".utf8), key: "one"))
        #expect(store.clear().files == 1)
        #expect(!FileManager.default.fileExists(atPath: store.folder), "an emptied folder stayed")
    }

    @Test func aFolderThatCannotBeMadeStoresNothingAndLeavesNothing() throws {
        let folder = try Folder()
        defer { folder.remove() }
        // A file where the results folder should be.
        try Data().write(to: URL(fileURLWithPath: folder.path + "/" + ResultStore.folderName))
        let store = ResultStore(cacheFolder: folder.path)
        #expect(!store.store(Data("x".utf8), key: "one"))
        #expect(store.load(key: "one") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [ResultStore.folderName])
    }
}
