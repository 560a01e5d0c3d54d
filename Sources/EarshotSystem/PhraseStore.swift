import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder of cached phrases: whole-file reads, atomic writes, least-recently-used eviction.
///
/// A store that writes in the background (the one `earshot` uses) keeps entries in packs, a few files per run:
/// timings in timing packs (PhraseStore+Packs.swift), audio in audio packs (PhraseStore+AudioPacks.swift). Any
/// other store writes each entry as a file `<32 hex digits>.phrase` in ``folder``, and every store reads both.
/// Every file goes first to a hidden temporary file (`.tmp-…`) in the same folder that is renamed into place, so
/// a reader in this or another process sees the old file, the new one or none, never half of one; no lock is
/// taken, and two processes writing the same entry both leave a whole one. An entry's modification time is its last use: set when written and on every
/// hit. The folder is bounded in bytes: each process keeps a running estimate of the folder's size (one scan
/// at its first write, then the sizes it writes), and only when the estimate passes the bound does it scan the
/// folder and remove the least recently used entries until they fill at most nine tenths of it.
///
/// A store made with `writesInBackground` hands each write to one writer thread for the whole process and
/// returns at once: the run does not wait for the disk, and a read in this process finds a queued entry before
/// it reaches the folder. ``finishWrites()`` waits for every queued write; an entry lost because the process
/// ended first is only a miss next time. A failure on the writer thread goes to the handler given to
/// ``reportBackgroundFailures(to:)`` as it happens (so one in the last writes of a run is still told), else it is
/// thrown by the next write.
final class PhraseStore: @unchecked Sendable {
    /// The folder holding the entries.
    let folder: String
    /// The bound on the entries' total size, in bytes.
    let limit: Int

    private let lock = NSLock()
    private var estimate: Int?
    /// Whether this process made sure the folder exists (it is made once, and again if it disappears).
    private var folderMade = false
    /// Writes started by this process, for unique temporary names.
    private var writes = 0
    /// Whether writes go to the writer thread.
    private let writesInBackground: Bool
    /// The first failure of a write on the writer thread, not yet thrown (kept only without a handler).
    private var backgroundFailure: (any Error)?
    /// Told of each failure on the writer thread, on that thread.
    private var backgroundFailureHandler: (@Sendable (any Error) -> Void)?

    /// The writer thread (one for the process, so writes keep their order).
    static let writer = BackgroundWriter()
    static let pendingLock = NSLock()
    /// Queued entries by path, with the write that queued them (a later write of the same path replaces it).
    nonisolated(unsafe) static var pending: [String: (serial: Int, data: Data)] = [:]
    /// Bytes queued and not yet written.
    nonisolated(unsafe) static var pendingBytes = 0
    /// The pack state of every phrase folder this process used (see PhraseStore+Packs.swift).
    static let packStatesLock = NSLock()
    nonisolated(unsafe) static var packStates: [String: PackState] = [:]
    /// Past this many queued bytes a write waits for the queue to drain, so memory stays bounded.
    static let pendingLimit = 8 << 20

    /// A temporary file older than this was left by a writer that died: the eviction scan removes it.
    static let staleTemporaryAge: TimeInterval = 600
    /// The prefix of temporary files.
    static let temporaryPrefix = ".tmp-"

    init(folder: String, limit: Int, writesInBackground: Bool = false) {
        self.folder = folder
        self.limit = limit
        self.writesInBackground = writesInBackground
    }

    /// Waits until every write queued by any store in this process is in its folder (or failed).
    static func finishWrites() {
        flushAllPacks()
        writer.wait()
    }

    /// Keeps the writer thread waiting until the returned function is called, so a test can look at a write
    /// while it is queued.
    static func holdWriter() -> @Sendable () -> Void {
        let gate = DispatchSemaphore(value: 0)
        writer.submit { gate.wait() }
        return { gate.signal() }
    }

    /// The bytes of entry `name`, or nil when there is none (or it cannot be read).
    ///
    /// Plain system calls: a hit on an entry with a file of its own is one `open`, `fstat` and `read` (Foundation's
    /// file reading costs several times that, once per phrase); a miss makes none (``mayHoldLooseEntry(_:)``).
    func read(_ name: String) -> Data? {
        let path = folder + "/" + name
        if let queued = Self.pendingLock.withLock({ Self.pending[path]?.data }) { return queued }
        if let packed = packedEntry(name) ?? audioPackEntry(name) { return packed.data }
        return mayHoldLooseEntry(name) ? readWhole(path) : nil
    }

    /// The whole regular file at `path`, or nil.
    func readWhole(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var data = Data(count: Int(status.st_size))
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let got = Glibc.read(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                offset += got
            }
            return true
        }
        return complete ? data : nil
    }

    /// Marks entry `name` as just used (the pack holding it, for a packed entry).
    func touch(_ name: String) {
        if let pack = packedEntry(name)?.pack { return touchPack(pack) }
        if let pack = audioPack(holding: name) {
            // A pack this process is still writing gets its stamp when it is named.
            if !pack.hasPrefix(Self.temporaryPrefix) { touchPack(pack) }
            return
        }
        Self.markUsed(folder + "/" + name)
    }

    /// Stamps the file at `path` as just used (its modification time, to the nanosecond; ``useStamp()``): the
    /// least recently used go first when a bound is kept. Phrases, packs and remembered check runs alike.
    static func markUsed(_ path: String) {
        var times = [useStamp(), useStamp()]
        times[0].tv_nsec = leaveAccessTime
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// `UTIME_OMIT` (a C macro Swift does not import): leave that time as it is.
    static let leaveAccessTime = (1 << 30) - 2
    private static let stampLock = NSLock()
    nonisolated(unsafe) private static var lastStamp = timespec()

    /// The time to record as a use: the clock to the nanosecond, and always later than the previous stamp
    /// this process gave. (The time the kernel stamps by itself moves in steps of milliseconds, so uses
    /// close together would tie and the least recently used could not be told.)
    static func useStamp() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return stampLock.withLock {
            if (now.tv_sec, now.tv_nsec) <= (lastStamp.tv_sec, lastStamp.tv_nsec) {
                now = lastStamp
                now.tv_nsec += 1
                if now.tv_nsec >= 1_000_000_000 {
                    now.tv_sec += 1
                    now.tv_nsec = 0
                }
            }
            lastStamp = now
            return now
        }
    }

    /// Stores `data` as entry `name` atomically, creating the folder when needed, then evicts if over the bound.
    /// In the background, only making the folder happens before this returns. Returns false when the entry was not
    /// stored because the run stores no more audio (``acceptsAudio``).
    ///
    /// - Throws: `POSIXError` from creating the folder or writing (the caller warns once), or the failure of an
    ///   earlier write on the writer thread.
    @discardableResult
    func write(_ data: Data, as name: String) throws -> Bool {
        guard writesInBackground else {
            try writeMakingFolder(data, as: name)
            return true
        }
        if let failure = lock.withLock({ () -> (any Error)? in
            defer { backgroundFailure = nil }
            return backgroundFailure
        }) {
            throw failure
        }
        if !lock.withLock({ folderMade }) {
            try Self.createFolder(folder)
            lock.withLock { folderMade = true }
        }
        // The bound already had to evict this run's own audio: more of it would only evict more (see `evict()`).
        if !Self.isPackable(data), !acceptsAudio { return false }
        let path = folder + "/" + name
        let (serial, queued) = Self.pendingLock.withLock { () -> (Int, Int) in
            let serial = (Self.pending[path]?.serial ?? 0) + 1
            Self.pending[path] = (serial, data)
            Self.pendingBytes += data.count
            return (serial, Self.pendingBytes)
        }
        if Self.isPackable(data) {
            queueInPack(data, as: name, serial: serial)
        } else {
            queueAudio(data, as: name, serial: serial)
        }
        // The writer drains what is queued without ending the packs it fills (timings queue at most a pack).
        if queued > Self.pendingLimit { Self.writer.wait() }
        return true
    }

    /// False once the bound had to evict audio this run wrote (``evict()``): the run stores no more audio.
    var acceptsAudio: Bool {
        let state = Self.packState(for: folder)
        return state.lock.withLock { !state.audioFull }
    }

    /// Hands every later failure on the writer thread to `handler`, on that thread, instead of keeping it for the
    /// next write to throw: a failure of the writes that end a run has no next write.
    func reportBackgroundFailures(to handler: @escaping @Sendable (any Error) -> Void) {
        lock.withLock { backgroundFailureHandler = handler }
    }

    /// Tells the handler of a failure on the writer thread, or keeps the first one for the next write to throw.
    func recordBackgroundFailure(_ error: any Error) {
        let handler = lock.withLock { () -> (@Sendable (any Error) -> Void)? in
            if backgroundFailureHandler == nil { backgroundFailure = backgroundFailure ?? error }
            return backgroundFailureHandler
        }
        handler?(error)
    }

    private func writeMakingFolder(_ data: Data, as name: String) throws {
        do {
            try writeEntry(data, as: name)
        } catch let error as POSIXError where error.code == .ENOENT {
            // The folder went away since this process made it (`earshot cache clear`): make it again, once.
            lock.withLock { folderMade = false }
            try writeEntry(data, as: name)
        }
    }

    private func writeEntry(_ data: Data, as name: String) throws {
        let (made, serial) = lock.withLock { () -> (Bool, Int) in
            writes += 1
            return (folderMade, writes)
        }
        if !made {
            try Self.createFolder(folder)
            lock.withLock { folderMade = true }
        }
        let path = folder + "/" + name
        var existing = stat()
        let previous = lstat(path, &existing) == 0 ? Int(existing.st_size) : 0
        try Self.writeAtomically(data, to: path, temporaryIn: folder, serial: serial)
        noteLooseEntry(name)
        noteWritten(bytes: data.count, replacing: previous)
    }

    /// Writes `data` to a temporary file in `temporaryFolder` and renames it to `path` (no temporary is left when
    /// that fails). Phrases, packs, engine stamps and remembered check runs are all written this way.
    static func writeAtomically(_ data: Data, to path: String, temporaryIn temporaryFolder: String, serial: Int = 0)
        throws
    {
        let temporary =
            temporaryFolder + "/" + Self.temporaryPrefix + "\(getpid())-\(serial)-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        do {
            try Self.writeFile(data, to: temporary)
            guard rename(temporary, path) == 0 else { throw Self.posixError() }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Counts `bytes` written (in place of `previous` bytes) against the bound, evicting when over it.
    func noteWritten(bytes: Int, replacing previous: Int) {
        let overBound = lock.withLock { () -> Bool in
            // The first time, the scan already finds what was just written.
            if let known = estimate { estimate = known + bytes - previous } else { estimate = scan().total }
            return (estimate ?? 0) > limit
        }
        if overBound { evict() }
    }

    /// Creates `path` and its missing parents (mode 0777 less the umask); a relative path is taken from the current
    /// folder.
    ///
    /// - Throws: `POSIXError` with the system's reason (`Not a directory`, `Permission denied`).
    static func createFolder(_ path: String) throws {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o777) == 0 || errno == EEXIST { continue }
            throw posixError()
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw POSIXError(.ENOTDIR)
        }
    }

    /// Writes `data` to a new file at `path`, stamped as just used (no `fsync`: a cache entry lost to a crash is
    /// only a miss).
    private static func writeFile(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw posixError() }
        defer {
            var times = [useStamp(), useStamp()]
            times[0].tv_nsec = Self.leaveAccessTime
            _ = futimens(descriptor, &times)
            close(descriptor)
        }
        try writeAll(data, to: descriptor)
    }

    static func posixError() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }

    /// The entries (name, size, last use), oldest use first, and their total size; stale temporaries removed.
    ///
    /// One `lstat` per file: Foundation's file attributes also look up the owner's and group's names, which read
    /// `/etc/passwd` and `/etc/group` for every file (the first write of every run scans the folder).
    func scan() -> (entries: [(name: String, size: Int, used: timespec)], total: Int) {
        var entries: [(name: String, size: Int, used: timespec)] = []
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        func visit(_ folder: String, prefix: String, isEntry: (String) -> Bool) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                var status = stat()
                let path = folder + "/" + name
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
                if name.hasPrefix(Self.temporaryPrefix) {
                    if TimeInterval(now.tv_sec - status.st_mtim.tv_sec) > Self.staleTemporaryAge { unlink(path) }
                    continue
                }
                guard isEntry(name) else { continue }
                entries.append((prefix + name, Int(status.st_size), status.st_mtim))
            }
        }
        visit(folder, prefix: "", isEntry: Self.isEntryName)
        // Each pack is one entry of the bound: used, evicted and cleared as a whole.
        visit(packFolder, prefix: Self.packFolderName + "/") { Self.isPackName($0) || Self.isAudioPackName($0) }
        entries.sort { ($0.used.tv_sec, $0.used.tv_nsec, $0.name) < ($1.used.tv_sec, $1.used.tv_nsec, $1.name) }
        return (entries, entries.reduce(0) { $0 + $1.size })
    }

    /// Removes entries until the rest fill at most nine tenths of the bound (what this run read: the bound), the
    /// run's own packs last.
    ///
    /// Plain least-recently-used eviction fails a run longer than the bound, run after run: the first run keeps its
    /// end, the next one asks for its start first, misses, and the audio it stores evicts the end before the run
    /// gets there. Every phrase misses every time (a 600-second stopwatch under an 8 MB bound rendered as slowly warm
    /// as cold). So the packs this run read an entry from or wrote (``PackState/touched``, ``PackState/written``)
    /// go last:
    ///
    /// 1. what this run neither read nor wrote, least recently used first;
    /// 2. then the audio packs this run wrote, most recently used first. From then on the run stores no more
    ///    audio (``PackState/audioFull``): it would only evict more of its own;
    /// 3. then, only while the folder is over the bound itself (not nine tenths of it), the audio packs this run
    ///    read, most recently used first: a run reads a scenario's phrases in order, so the start it read first
    ///    stays;
    /// 4. then, only while it is still over the bound, the rest (the run's timing packs), least recently used
    ///    first.
    ///
    /// The next run of the same scenario finds that start, and what it synthesizes after it evicts only its own
    /// audio again. Steps 3 and 4 stop at the bound because what a run read is worth keeping: the nine tenths
    /// only spare a process from looking through the folder at every write.
    func evict() {
        let state = Self.packState(for: folder)
        let (touched, written) = state.lock.withLock { (state.touched, state.written) }
        let evictedOwnAudio = lock.withLock { () -> Bool in
            let (entries, scanned) = scan()
            var total = scanned
            let target = limit / 10 * 9
            var removed: Set<String> = []
            func remove(_ entry: (name: String, size: Int, used: timespec), downTo bound: Int) -> Bool {
                guard total > bound, !removed.contains(entry.name) else { return false }
                unlink(folder + "/" + entry.name)
                removed.insert(entry.name)
                total -= entry.size
                return true
            }
            /// The pack file an entry of the scan names, when it is one.
            func pack(_ name: String) -> String? {
                name.hasPrefix(Self.packFolderName + "/") ? String(name.dropFirst(Self.packFolderName.count + 1)) : nil
            }
            func isOwn(_ name: String) -> Bool {
                pack(name).map { touched.contains($0) || written.contains($0) } ?? false
            }
            func isOwnAudio(_ name: String, written wanted: Bool) -> Bool {
                guard let file = pack(name), Self.isAudioPackName(file) else { return false }
                return written.contains(file) == wanted && (wanted || touched.contains(file))
            }
            for entry in entries where !isOwn(entry.name) { _ = remove(entry, downTo: target) }
            var evictedOwnAudio = false
            for entry in entries.reversed() where isOwnAudio(entry.name, written: true) {
                if remove(entry, downTo: target) { evictedOwnAudio = true }
            }
            for entry in entries.reversed() where isOwnAudio(entry.name, written: false) {
                if remove(entry, downTo: limit) { evictedOwnAudio = true }
            }
            for entry in entries { _ = remove(entry, downTo: limit) }
            estimate = total
            return evictedOwnAudio
        }
        if evictedOwnAudio { state.lock.withLock { state.audioFull = true } }
    }

    /// True for the names of files this store writes and owns: entries and temporaries.
    static func isOwnedName(_ name: String) -> Bool {
        isEntryName(name) || name.hasPrefix(temporaryPrefix) || EngineStamp.isStampName(name)
    }

    /// True for `<32 lower-case hex digits>.phrase`.
    static func isEntryName(_ name: String) -> Bool {
        isEntryName(utf8: name.utf8)
    }

    /// The bytes of an entry's name, `.phrase` included.
    private static let entrySuffix = Array(("." + PhraseCache.entryExtension).utf8)

    /// ``isEntryName(_:)`` of a name's UTF-8 bytes, byte by byte (a cache's first read checks every name in its
    /// packs: with Unicode character properties that was most of the time a warm check took to load them).
    static func isEntryName<Bytes: Collection>(utf8 bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard bytes.count == 32 + entrySuffix.count else { return false }
        var index = 0
        for byte in bytes {
            if index < 32 {
                guard (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) else { return false }
            } else if byte != entrySuffix[index - 32] {
                return false
            }
            index += 1
        }
        return true
    }

    /// How many entries the pack `packs/<file>` holds (0 when it cannot be read).
    func entryCount(ofPack name: String) -> Int {
        let path = folder + "/" + name
        if Self.isAudioPackName((name as NSString).lastPathComponent) {
            return Self.audioIndex(atPath: path)?.entries.count ?? 0
        }
        return readWhole(path).map { Self.unpack($0).entries.count } ?? 0
    }

    /// How many entries the folder holds (a pack counts as the entries in it) and their files' total size.
    func usage() -> (files: Int, bytes: Int) {
        let scanned = scan()
        let entries = scanned.entries.reduce(0) { count, entry in
            guard entry.name.hasPrefix(Self.packFolderName + "/") else { return count + 1 }
            return count + entryCount(ofPack: entry.name)
        }
        return (entries, scanned.total)
    }

    /// Removes every entry and temporary file; returns how many files and bytes were removed. Nothing else in
    /// the folder is touched, and the folder itself is removed only when that leaves it empty.
    func clear() -> (files: Int, bytes: Int) {
        Self.finishWrites()
        return lock.withLock {
            let manager = FileManager.default
            var files = 0
            var bytes = 0
            for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where Self.isOwnedName(name) {
                let path = folder + "/" + name
                guard let attributes = try? manager.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                // A stamp goes with the phrases but is not one.
                if (try? manager.removeItem(atPath: path)) != nil, !EngineStamp.isStampName(name) {
                    files += 1
                    bytes += attributes[.size] as? Int ?? 0
                }
            }
            // Packs count as the entries they hold.
            for name in (try? manager.contentsOfDirectory(atPath: packFolder)) ?? []
            where Self.isPackName(name) || Self.isAudioPackName(name) || name.hasPrefix(Self.temporaryPrefix) {
                let path = packFolder + "/" + name
                let isPack = !name.hasPrefix(Self.temporaryPrefix)
                let counted = isPack ? entryCount(ofPack: Self.packFolderName + "/" + name) : 0
                var status = stat()
                let size = lstat(path, &status) == 0 ? Int(status.st_size) : 0
                if (try? manager.removeItem(atPath: path)) != nil, isPack {
                    files += counted
                    bytes += size
                }
            }
            if (try? manager.contentsOfDirectory(atPath: packFolder))?.isEmpty == true {
                try? manager.removeItem(atPath: packFolder)
            }
            forgetPacks()
            if (try? manager.contentsOfDirectory(atPath: folder))?.isEmpty == true {
                try? manager.removeItem(atPath: folder)
            }
            estimate = nil
            folderMade = false
            return (files, bytes)
        }
    }
}
