#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// Waits for files to be saved in a set of folders, through Linux's inotify.
///
/// Folders are watched rather than files, because many editors save by writing a new file and renaming it
/// over the old one (vim, VS Code's atomic save, Sublime): a watch on the old file would see it deleted and
/// then nothing. A save by rename arrives as `IN_MOVED_TO`, an in-place save as `IN_CLOSE_WRITE`.
public final class FileWatcher {
    /// Why watching failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public var description: String
    }

    /// A saved file: its folder and name.
    public struct Change: Hashable, Sendable {
        /// The folder it is in, as given to the watcher.
        public var folder: String
        /// Its name in the folder.
        public var name: String
        /// The full path.
        public var path: String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }
    }

    #if canImport(Glibc)
        private let descriptor: Int32
        private var folders: [Int32: String] = [:]
    #endif

    /// Starts an inotify instance.
    ///
    /// - Throws: `Failure` when inotify is unavailable (non-Linux systems, or the per-user limit is reached).
    public init() throws {
        #if canImport(Glibc)
            descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0 else {
                throw Failure(description: "cannot watch files: inotify_init1: \(String(cString: strerror(errno)))")
            }
        #else
            throw Failure(description: "--watch needs Linux's inotify")
        #endif
    }

    deinit {
        #if canImport(Glibc)
            close(descriptor)
        #endif
    }

    /// Watches one folder (not its subfolders) for files written, renamed into it, created or deleted.
    ///
    /// - Throws: `Failure` naming the folder and the system's reason.
    public func watch(folder: String) throws {
        #if canImport(Glibc)
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
            let watch = inotify_add_watch(descriptor, folder, mask)
            guard watch >= 0 else {
                throw Failure(description: "\(folder): cannot watch: \(String(cString: strerror(errno)))")
            }
            folders[watch] = folder
        #endif
    }

    /// How many folders are watched.
    public var folderCount: Int {
        #if canImport(Glibc)
            return folders.count
        #else
            return 0
        #endif
    }

    /// Blocks until at least one file that `relevant` accepts changes, then gathers what else changes within
    /// `settle` (an editor's save is several events) and returns the changes, sorted. With a `timeout`, returns
    /// an empty list when nothing relevant changed in that time.
    ///
    /// - Throws: `Failure` when reading inotify fails.
    public func waitForChanges(
        settle: Duration = .milliseconds(150), timeout: Duration? = nil, relevant: (Change) -> Bool
    ) throws -> [Change] {
        var changes: Set<Change> = []
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while changes.isEmpty {
            var wait: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return [] }
                wait = Self.milliseconds(left)
            }
            changes.formUnion(try read(timeoutMilliseconds: wait).filter(relevant))
        }
        let settleMilliseconds = Self.milliseconds(settle)
        while true {
            let more = try read(timeoutMilliseconds: settleMilliseconds)
            if more.isEmpty { break }
            changes.formUnion(more.filter(relevant))
        }
        return changes.sorted { $0.path < $1.path }
    }

    /// A duration in whole milliseconds for `poll`, rounded up so a wait never ends early.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }

    /// Reads the events ready within the timeout (-1: wait forever); an empty list when none came.
    private func read(timeoutMilliseconds: Int32) throws -> [Change] {
        #if canImport(Glibc)
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, timeoutMilliseconds)
            if ready < 0 {
                if errno == EINTR { return [] }
                throw Failure(description: "cannot watch files: poll: \(String(cString: strerror(errno)))")
            }
            guard ready > 0 else { return [] }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { return [] }
                throw Failure(description: "cannot watch files: read: \(String(cString: strerror(errno)))")
            }
            var changes: [Change] = []
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (watch, length) = buffer.withUnsafeBytes { bytes in
                    (
                        bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                if let folder = folders[watch], !nameBytes.isEmpty {
                    changes.append(Change(folder: folder, name: String(decoding: nameBytes, as: UTF8.self)))
                }
                offset += header + length
            }
            return changes
        #else
            return []
        #endif
    }
}
