import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The synthesized audio a ``SpeechLibrary`` keeps, by phrase: in memory up to a bound in bytes; beyond it,
/// either forgotten (least recently used first) or spilled to a temporary file, so a phrase is never synthesized
/// twice however long the run and memory stays within the bound.
///
/// The spill file is removed from its folder as soon as it is opened: it has no name while the process writes and
/// reads it, so nothing is left behind whatever ends the process (an error, Ctrl-C, SIGKILL). Not thread-safe: the
/// library calls it under its lock.
final class SpeechAudioStore<Key: Hashable> {
    /// One phrase's audio: the first `samples.count` frames of it, or all of it when `isComplete`.
    struct Entry {
        var samples: [Int16]
        var isComplete: Bool
    }

    private struct Spilled {
        var offset: UInt64
        var frames: Int
        var isComplete: Bool
    }

    /// The bound on audio held in memory, in bytes.
    let memoryLimit: Int
    /// Where spill files go; nil forgets audio beyond the bound instead.
    let spillDirectory: String?
    private var memory: [Key: (entry: Entry, lastUse: Int)] = [:]
    private var memoryBytes = 0
    private var useCounter = 0
    private var spilled: [Key: Spilled] = [:]
    private var spillFile: FileHandle?
    private var spillEnd: UInt64 = 0
    /// Frames written to the spill file so far.
    private(set) var spilledFrames = 0

    init(memoryLimit: Int, spillDirectory: String?) {
        self.memoryLimit = memoryLimit
        self.spillDirectory = spillDirectory
    }

    deinit { try? spillFile?.close() }

    /// How many frames of `key` are kept (all of it when `isComplete`), without reading them.
    func extent(of key: Key) -> (frames: Int, isComplete: Bool)? {
        if let kept = memory[key] { return (kept.entry.samples.count, kept.entry.isComplete) }
        return spilled[key].map { ($0.frames, $0.isComplete) }
    }

    /// The audio kept for `key`, from memory or the spill file.
    ///
    /// - Throws: `SpeechAudioStoreError` when the spill file cannot be read.
    func entry(for key: Key) throws -> Entry? {
        if var kept = memory[key] {
            useCounter += 1
            kept.lastUse = useCounter
            memory[key] = kept
            return kept.entry
        }
        guard let place = spilled[key], let file = spillFile else { return nil }
        do {
            try file.seek(toOffset: place.offset)
            let data = try file.read(upToCount: place.frames * 2) ?? Data()
            guard data.count == place.frames * 2 else {
                throw SpeechAudioStoreError(message: "the spill file ended early (\(data.count) bytes read)")
            }
            var samples = [Int16](repeating: 0, count: place.frames)
            samples.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
            return Entry(samples: samples, isComplete: place.isComplete)
        } catch let error as SpeechAudioStoreError {
            throw error
        } catch {
            throw SpeechAudioStoreError(message: "cannot read the spill file: \(SystemReason.of(error))")
        }
    }

    /// Keeps `entry` for `key` when it holds more than what is kept already.
    ///
    /// - Throws: `SpeechAudioStoreError` when the spill file cannot be made or written (a full disk).
    func store(_ entry: Entry, for key: Key) throws {
        if let kept = extent(of: key), kept.isComplete || (!entry.isComplete && kept.frames >= entry.samples.count) {
            return
        }
        let bytes = entry.samples.count * 2
        if let old = memory.removeValue(forKey: key) { memoryBytes -= old.entry.samples.count * 2 }
        guard bytes <= memoryLimit else {
            try spill(entry, for: key)
            return
        }
        useCounter += 1
        memory[key] = (entry, useCounter)
        memoryBytes += bytes
        guard memoryBytes > memoryLimit else { return }
        // Move least recently used entries out down to three quarters of the bound in one sorted pass, so a long
        // run pays for it now and then instead of scanning on every insert.
        let target = memoryLimit / 4 * 3
        for (oldKey, old) in memory.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard memoryBytes > target else { break }
            memoryBytes -= old.entry.samples.count * 2
            memory[oldKey] = nil
            try spill(old.entry, for: oldKey)
        }
    }

    private func spill(_ entry: Entry, for key: Key) throws {
        guard let directory = spillDirectory else { return }
        if let place = spilled[key], place.isComplete || place.frames >= entry.samples.count { return }
        let file = try openSpillFile(in: directory)
        // Native byte order: only this process reads the file.
        let data = entry.samples.withUnsafeBufferPointer { Data(buffer: $0) }
        do {
            try file.seek(toOffset: spillEnd)
            try file.write(contentsOf: data)
        } catch {
            throw SpeechAudioStoreError(
                message: "cannot write the spill file in \(Self.shown(directory)): \(SystemReason.of(error))")
        }
        spilled[key] = Spilled(offset: spillEnd, frames: entry.samples.count, isComplete: entry.isComplete)
        spillEnd += UInt64(data.count)
        spilledFrames += entry.samples.count
    }

    private func openSpillFile(in directory: String) throws -> FileHandle {
        if let spillFile { return spillFile }
        let path = directory + "/.earshot-audio-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SpeechAudioStoreError(
                message: "cannot create a spill file in \(Self.shown(directory)): \(SystemReason.text(errno))")
        }
        // Nameless from here on: the open descriptor keeps the data until the process ends.
        unlink(path)
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        spillFile = file
        return file
    }

    /// `directory` as a message names it: without the trailing slash `NSTemporaryDirectory()` gives.
    private static func shown(_ directory: String) -> String {
        directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }
}

/// The spill file of a ``SpeechLibrary`` could not be made, written or read.
public struct SpeechAudioStoreError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the folder.
    public var message: String

    /// The message.
    public var description: String { message }
}
