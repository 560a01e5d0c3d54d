import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole command results kept between runs, in the cache folder's `results/` folder: one file per key.
///
/// The key is a text the caller builds from everything the result depends on; the store only keeps it. Each file
/// holds the key whole and a checksum: a file is used only when its key equals the one asked for and its bytes
/// are intact, so two keys sharing a file name, a truncated write or a damaged file are misses, never a wrong
/// answer. Files are written to a temporary name and renamed into place, so concurrent runs see a whole result
/// or none; a failed write is silent (the next run runs again). The store keeps at most ``limit`` results and
/// ``byteLimit`` bytes of them, the least recently used going first; a result larger than a quarter of
/// ``byteLimit`` is not kept at all.
public struct ResultStore: Sendable {
    /// The folder holding the results.
    public let folder: String
    /// The most results kept.
    public let limit: Int
    /// The most bytes of results kept.
    public let byteLimit: Int

    /// The results folder of cache folder `cacheFolder`.
    public init(
        cacheFolder: String, limit: Int = ResultStore.defaultLimit, byteLimit: Int = ResultStore.defaultByteLimit
    ) {
        folder = cacheFolder + "/" + Self.folderName
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// The folder's name inside the cache folder.
    public static let folderName = "results"
    /// The most results kept by default: a result is a few kilobytes, and each command line and set of inputs has
    /// its own.
    public static let defaultLimit = 256
    /// The most bytes of results kept by default.
    public static let defaultByteLimit = 64 << 20
    /// The extension of a result's file.
    static let fileExtension = "result"
    /// The first line of every result file (its format).
    static let header = Array("earshot result 1\n".utf8)

    /// The payload stored under `key`, nil when there is none (or it is damaged, or another key's). A result that
    /// is read is marked as just used.
    public func load(key: String) -> Data? {
        let path = self.path(for: key)
        guard let data = FileManager.default.contents(atPath: path), let payload = Self.decode(data, key: key) else {
            return nil
        }
        PhraseStore.markUsed(path)
        return payload
    }

    /// Stores `payload` under `key`, replacing any result stored under it; then removes the least recently used
    /// results beyond the bounds. Returns false when it was too large or could not be written (nothing is then left
    /// behind).
    @discardableResult
    public func store(_ payload: Data, key: String) -> Bool {
        guard payload.count <= byteLimit / 4 else { return false }
        do {
            try PhraseStore.createFolder(folder)
            try PhraseStore.writeAtomically(Self.encode(payload, key: key), to: path(for: key), temporaryIn: folder)
        } catch {
            return false
        }
        evict()
        return true
    }

    /// How many results the folder holds and their total size.
    public func usage() -> (files: Int, bytes: Int) {
        let entries = scan()
        return (entries.count, entries.reduce(0) { $0 + $1.size })
    }

    /// Removes every result and temporary file of the store, and the folder once that leaves it empty. Returns how
    /// many results and bytes were removed; anything else in the folder stays.
    public func clear() -> (files: Int, bytes: Int) {
        let manager = FileManager.default
        var removed = (files: 0, bytes: 0)
        for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
            let isResult = Self.isResultName(name)
            guard isResult || name.hasPrefix(PhraseStore.temporaryPrefix) else { continue }
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, unlink(path) == 0, isResult else {
                continue
            }
            removed.files += 1
            removed.bytes += Int(status.st_size)
        }
        if (try? manager.contentsOfDirectory(atPath: folder))?.isEmpty == true { rmdir(folder) }
        return removed
    }

    /// The file a key's result lives in: `<32 hexadecimal digits>.result`, from two FNV-1a hashes of the key.
    func path(for key: String) -> String {
        folder + "/" + ContentHash.of(Array(key.utf8)) + "." + Self.fileExtension
    }

    /// The results (name, size, last use), oldest use first; temporaries older than ten minutes are removed.
    private func scan() -> [(name: String, size: Int, used: timespec)] {
        var entries: [(name: String, size: Int, used: timespec)] = []
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var status = stat()
            let path = folder + "/" + name
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            #if os(Linux)
                let used = status.st_mtim
            #else
                let used = status.st_mtimespec
            #endif
            if name.hasPrefix(PhraseStore.temporaryPrefix) {
                if TimeInterval(now.tv_sec - used.tv_sec) > PhraseStore.staleTemporaryAge { unlink(path) }
                continue
            }
            guard Self.isResultName(name) else { continue }
            entries.append((name, Int(status.st_size), used))
        }
        return entries.sorted {
            ($0.used.tv_sec, $0.used.tv_nsec, $0.name) < ($1.used.tv_sec, $1.used.tv_nsec, $1.name)
        }
    }

    /// Removes the least recently used results beyond the bounds.
    private func evict() {
        let entries = scan()
        var count = entries.count
        var bytes = entries.reduce(0) { $0 + $1.size }
        for entry in entries where count > limit || bytes > byteLimit {
            unlink(folder + "/" + entry.name)
            count -= 1
            bytes -= entry.size
        }
    }

    /// True for `<32 lower-case hex digits>.result`.
    static func isResultName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == fileExtension, parts[0].utf8.count == 32 else { return false }
        return parts[0].utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The file's bytes: the header line, the key's length and bytes, the payload's length and bytes (lengths as
    /// 8-byte little-endian numbers), then a checksum of everything before it.
    static func encode(_ payload: Data, key: String) -> Data {
        var bytes = header
        let keyBytes = Array(key.utf8)
        append(UInt64(keyBytes.count), to: &bytes)
        bytes += keyBytes
        append(UInt64(payload.count), to: &bytes)
        bytes += payload
        append(bytes.withUnsafeBytes { FNV1a.checksum($0) }, to: &bytes)
        return Data(bytes)
    }

    /// The payload of a file's bytes when they are whole and hold `key`; nil otherwise.
    static func decode(_ data: Data, key: String) -> Data? {
        let bytes = [UInt8](data)
        guard bytes.count >= header.count + 24, bytes.starts(with: header) else { return nil }
        let body = bytes.count - 8
        let checksum = bytes.withUnsafeBytes { FNV1a.checksum(UnsafeRawBufferPointer(rebasing: $0[..<body])) }
        guard number(in: bytes, at: body) == checksum else { return nil }
        var offset = header.count
        let keyBytes = Array(key.utf8)
        guard let keyCount = number(in: bytes, at: offset), keyCount == UInt64(keyBytes.count),
            body - offset - 8 >= keyBytes.count + 8,
            bytes[(offset + 8)..<(offset + 8 + keyBytes.count)].elementsEqual(keyBytes)
        else { return nil }
        offset += 8 + keyBytes.count
        guard let payloadCount = number(in: bytes, at: offset), payloadCount == UInt64(body - offset - 8) else {
            return nil
        }
        return Data(bytes[(offset + 8)..<body])
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func number(in bytes: [UInt8], at offset: Int) -> UInt64? {
        guard offset >= 0, offset + 8 <= bytes.count else { return nil }
        return bytes[offset..<(offset + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// A 128-bit fingerprint of some bytes as 32 hexadecimal digits (two 64-bit FNV-1a hashes with different seeds),
/// for keys and file contents; not for security (the cache is the user's own).
public enum ContentHash {
    /// The fingerprint of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String {
        let first = FNV1a.hash(bytes, seed: FNV1a.offsetBasis)
        let second = FNV1a.hash(bytes, seed: FNV1a.offsetBasis ^ 0x5bd1_e995_9e37_79b9)
        return hex(first) + hex(second)
    }

    /// The fingerprint of the bytes of `data`.
    public static func of(_ data: Data) -> String { of([UInt8](data)) }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
