import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Timings kept together: a pack is one file holding many entries, so a run that stores a hundred timings
/// creates one file instead of a hundred.
///
/// Creating a file is the costly part of storing a timing (a few hundred bytes): on ext4, after many files were
/// deleted nearby, each creation spent 0.5-1 ms in the kernel looking for a free inode, and a cold `check --jobs 2`
/// of the 24 scripts waited ~90 ms for its writer thread (measured: 180-210 ms against 93 ms with `--no-cache`).
///
/// A store that writes in the background (the one `earshot` uses) queues timing entries (``isPackable(_:)``) in
/// a pack of the process and writes the pack as one file in `packs/` when it holds ``packFlushBytes`` or when the
/// run's writes finish. Packs are named `<creation time in ns, 20 digits>-<pid>-<random>.pack`; a reader loads
/// every pack of the folder once, in name order, so the entry of a later pack replaces an earlier one's (a longer
/// timing replacing a cut one). A pack is used, evicted and cleared as a whole: reading any entry of it marks the
/// pack used. When a reader finds more than ``packsBeforeMerging`` packs it writes their entries as one pack and
/// removes them. Every entry keeps its own key and checksum, so a pack cut short or damaged loses only what it
/// cannot prove whole, and each of its entries is still checked when read.
extension PhraseStore {
    /// True for the entries packs hold: timings (a few hundred bytes each). Audio goes to audio packs
    /// (PhraseStore+AudioPacks.swift), read by an index rather than whole.
    static func isPackable(_ data: Data) -> Bool { data.starts(with: TimingEntry.magic) }
    /// A process writes its pack once it holds this much,
    static let packFlushBytes = 1 << 20
    /// or once its first entry has waited this long (a long or interrupted run keeps what it synthesized).
    static let packFlushAge: TimeInterval = 2
    /// A reader that finds more packs than this merges them into one.
    static let packsBeforeMerging = 8
    /// The first line of a pack.
    static let packHeader = Data("earshot pack 1\n".utf8)
    /// The folder of packs, inside the phrase folder.
    static let packFolderName = "packs"

    var packFolder: String { folder + "/" + Self.packFolderName }

    /// True for `<20 digits>-<digits>-<hex>.pack`.
    static func isPackName(_ name: String) -> Bool {
        guard name.hasSuffix(".pack") else { return false }
        let parts = name.dropLast(".pack".count).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 20 && parts[0].allSatisfy(\.isNumber)
            && !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber) && !parts[2].isEmpty
            && parts[2].allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The entries of a pack's bytes, in order, and whether the bytes were a whole pack (header, every record
    /// complete, nothing after the last). Records after the first malformed one are not read.
    static func unpack(_ data: Data) -> (entries: [(name: String, data: Data)], whole: Bool) {
        guard data.starts(with: packHeader) else { return ([], false) }
        var entries: [(name: String, data: Data)] = []
        var cursor = data.startIndex + packHeader.count
        while cursor < data.endIndex {
            // `<name> <length>\n` then the entry's bytes.
            guard let newline = data[cursor..<min(cursor + 128, data.endIndex)].firstIndex(of: 0x0A),
                let space = data[cursor..<newline].firstIndex(of: 0x20)
            else { return (entries, false) }
            let name = data[cursor..<space]
            let digits = data[(space + 1)..<newline]
            guard isEntryName(utf8: name), let length = decimal(digits), length <= data.endIndex - newline - 1
            else { return (entries, false) }
            let start = newline + 1
            entries.append((String(decoding: name, as: UTF8.self), Data(data[start..<start + length])))
            cursor = start + length
        }
        return (entries, true)
    }

    /// The value of 1 to 18 ASCII decimal digits, or nil.
    static func decimal(_ digits: Data) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// The bytes of a pack holding `entries`.
    static func pack(_ entries: [(name: String, data: Data)]) -> Data {
        var data = packHeader
        for entry in entries {
            data.append(Data("\(entry.name) \(entry.data.count)\n".utf8))
            data.append(entry.data)
        }
        return data
    }

    /// Whether entry `name` may be a file of its own in the folder: one listed when the packs were loaded, or
    /// written by this process since. Another process's file written after the listing is a miss, as its packs
    /// are. Only stores that do not write in the background write such files (`earshot` never does): without
    /// the listing, a run asked the folder for each phrase's timing and audio by name, two failed opens a
    /// phrase (1.4 % of a long check's time).
    func mayHoldLooseEntry(_ name: String) -> Bool {
        let state = Self.packState(for: folder)
        return state.lock.withLock { !state.loaded || state.looseEntries.contains(name) }
    }

    /// Notes a file of its own this process wrote for entry `name` (``mayHoldLooseEntry(_:)``).
    func noteLooseEntry(_ name: String) {
        let state = Self.packState(for: folder)
        _ = state.lock.withLock { state.looseEntries.insert(name) }
    }

    /// The entry `name` as the folder's packs hold it (loading them the first time), with its pack's file name.
    func packedEntry(_ name: String) -> (data: Data, pack: String)? {
        let state = Self.packState(for: folder)
        let needsMerge = state.lock.withLock { () -> Bool in
            guard !state.loaded else { return false }
            state.loaded = true
            load(into: state)
            return state.packFiles.count > Self.packsBeforeMerging
        }
        if needsMerge { Self.writer.submit { self.mergePacks() } }
        return state.lock.withLock { state.index[name] }
    }

    /// Reads every pack in the folder, oldest name first, and lists its loose entries (call with the state
    /// locked).
    private func load(into state: PackState) {
        let loose = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        state.looseEntries.formUnion(loose.filter(Self.isEntryName))
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: packFolder)) ?? []).filter(Self.isPackName)
        for file in names.sorted() {
            // A pack removed since the listing (merged by another process) is skipped: its entries are misses.
            guard let data = readWhole(packFolder + "/" + file) else { continue }
            for entry in Self.unpack(data).entries { state.index[entry.name] = (entry.data, file) }
            state.packFiles.append(file)
        }
    }

    /// Queues `data` as entry `name` in this process's pack for the folder; the writer thread writes the pack when
    /// it is full or when writes finish.
    func queueInPack(_ data: Data, as name: String, serial: Int) {
        let state = Self.packState(for: folder)
        let now = Date()
        let due = state.lock.withLock { state.timings.add((name, data, serial), by: self, at: now) }
        if due { Self.writer.submit { self.flushPack() } }
    }

    /// Writes the queued entries as one pack (on the writer thread).
    func flushPack() {
        let state = Self.packState(for: folder)
        let queued = state.lock.withLock { state.timings.take() }
        guard !queued.isEmpty else { return }
        var latest: [String: Int] = [:]
        for (position, entry) in queued.enumerated() { latest[entry.name] = position }
        let entries = queued.enumerated().filter { latest[$0.element.name] == $0.offset }.map {
            ($0.element.name, $0.element.data)
        }
        do {
            let file = try writePack(entries, stamp: nil)
            state.lock.withLock {
                for (name, data) in entries { state.index[name] = (data, file) }
                if state.loaded { state.packFiles.append(file) }
            }
        } catch {
            recordBackgroundFailure(error)
        }
        Self.pendingLock.withLock {
            for entry in queued {
                let path = folder + "/" + entry.name
                if Self.pending[path]?.serial == entry.serial {
                    Self.pending[path] = nil
                }
                Self.pendingBytes -= entry.data.count
            }
        }
    }

    /// Writes `entries` as a new pack named after `stamp` (the time now when nil), through a temporary file renamed
    /// into place; returns its file name. Counts its size against the bound.
    @discardableResult
    func writePack(_ entries: [(name: String, data: Data)], stamp: String?) throws -> String {
        try Self.createFolder(packFolder)
        let file = Self.packFileName(stamp: stamp, extension: ".pack")
        let data = Self.pack(entries)
        try Self.writeAtomically(data, to: packFolder + "/" + file, temporaryIn: packFolder)
        noteWritten(pack: file, bytes: data.count)
        return file
    }

    /// A new pack's file name: `<stamp>-<pid>-<random hex><extension>`, the stamp being the time now in
    /// nanoseconds (20 digits) when nil.
    static func packFileName(stamp: String?, extension: String) -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let time = stamp ?? zeroPadded(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec), width: 20)
        return "\(time)-\(getpid())-" + String(UInt64.random(in: 1...UInt64.max), radix: 16) + `extension`
    }

    /// `value` in decimal, with leading zeros to `width` digits (Foundation's `String(format:)` cost a fresh
    /// process about 0.1 ms a call in look-ups of its own).
    static func zeroPadded(_ value: UInt64, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Writes the entries of every pack this process loaded as one pack and removes those packs (on the writer
    /// thread). The merged pack is named after the newest of them, so a pack written meanwhile still sorts after it.
    func mergePacks() {
        let state = Self.packState(for: folder)
        let (files, entries) = state.lock.withLock { () -> ([String], [(name: String, data: Data)]) in
            let files = state.packFiles
            let kept = Set(files)
            let entries = state.index.filter { kept.contains($0.value.pack) }.sorted { $0.key < $1.key }
                .map { ($0.key, $0.value.data) }
            return (files, entries)
        }
        guard files.count > Self.packsBeforeMerging, let newest = files.max() else { return }
        do {
            let merged = try writePack(entries, stamp: String(newest.prefix(20)))
            for file in files { unlink(packFolder + "/" + file) }
            state.lock.withLock {
                state.packFiles = [merged]
                for (name, _) in entries { state.index[name]?.pack = merged }
            }
        } catch {
            // Merging is housekeeping: the packs stay as they were.
        }
    }

    /// The file name of the audio pack holding entry `name` (a temporary one while this process writes it), when
    /// its index is loaded and has it.
    func audioPack(holding name: String) -> String? {
        let state = Self.packState(for: folder)
        return state.lock.withLock { state.audioIndex[name]?.pack }
    }

    /// Marks the pack holding entry `name` as used (once per process and pack).
    func touchPack(_ file: String) {
        let state = Self.packState(for: folder)
        guard state.lock.withLock({ state.touched.insert(file).inserted }) else { return }
        Self.markUsed(packFolder + "/" + file)
    }

    /// Records pack `file`, just written with `bytes`, as this process's own, then counts it against the bound
    /// (in that order: the bound may evict it at once, and evicts a run's own packs last).
    func noteWritten(pack file: String, bytes: Int) {
        let state = Self.packState(for: folder)
        _ = state.lock.withLock { state.written.insert(file) }
        noteWritten(bytes: bytes, replacing: 0)
    }

    /// Forgets what this process knows of the folder's packs (after `clear`).
    func forgetPacks() {
        let state = Self.packState(for: folder)
        state.lock.withLock {
            state.loaded = false
            state.index = [:]
            state.packFiles = []
            state.looseEntries = []
            state.touched = []
            state.written = []
            state.audioFull = false
            state.audioLoaded = false
            state.audioIndex = [:]
            state.audioPacks = [:]
        }
    }

    /// The process-wide pack state of a phrase folder.
    static func packState(for folder: String) -> PackState {
        packStatesLock.withLock {
            if let state = packStates[folder] { return state }
            let state = PackState()
            packStates[folder] = state
            return state
        }
    }

    /// Hands every queued pack to the writer thread (``finishWrites()`` then waits for it; a run that goes on, such
    /// as `check --watch` between runs, calls this alone).
    static func flushAllPacks() {
        let states = packStatesLock.withLock { Array(packStates.values) }
        for state in states {
            let (store, audioStore) = state.lock.withLock { (state.timings.store, state.audio.store) }
            if let store { writer.submit { store.flushPack() } }
            if let audioStore {
                writer.submit {
                    audioStore.appendQueuedAudio()
                    audioStore.finishAudioPack()
                }
            }
        }
    }
}

/// What one process knows of one phrase folder's packs, and the pack it is filling.
final class PackState: @unchecked Sendable {
    let lock = NSLock()
    /// Whether the folder's packs were read.
    var loaded = false
    /// Every packed entry known, by name, with the file of the pack holding it.
    var index: [String: (data: Data, pack: String)] = [:]
    /// The pack files read (and written by this process since), oldest first.
    var packFiles: [String] = []
    /// The entries with a file of their own in the folder: those listed when the packs were read, and those this
    /// process wrote since.
    var looseEntries: Set<String> = []
    /// Packs already marked used by this process.
    var touched: Set<String> = []
    /// Packs this process wrote: with ``touched``, this run's own packs, which the bound evicts last (see
    /// ``PhraseStore/evict()``).
    var written: Set<String> = []
    /// Set once the bound had to evict audio this process wrote: what the run still synthesizes is not stored.
    var audioFull = false
    /// Timing entries queued for this process's next pack.
    var timings = PackQueue()
    /// Whether the indexes of the folder's audio packs were read.
    var audioLoaded = false
    /// Every entry known in an audio pack, by name (the longest of a name).
    var audioIndex: [String: AudioPackEntry] = [:]
    /// The audio packs read (and written by this process since), with their sizes.
    var audioPacks: [String: Int] = [:]
    /// Audio entries queued for this process's audio pack; its store also ends the pack.
    var audio = PackQueue()
    /// The audio pack this process is writing, if any.
    var writing: OpenAudioPack?
}

/// Entries queued for the writer thread, which takes them in batches: one hand-over per batch, not per entry.
struct PackQueue {
    typealias Entry = (name: String, data: Data, serial: Int)
    /// The entries, each with the write serial that queued it.
    private var entries: [Entry] = []
    private var bytes = 0
    /// When the first of the entries was queued.
    private var firstQueued = Date()
    /// The store that queued the last entry (it writes the batch).
    var store: PhraseStore?

    /// Queues `entry` from `store`; true when the batch is due: it holds ``PhraseStore/packFlushBytes``, or its
    /// first entry has waited ``PhraseStore/packFlushAge``.
    mutating func add(_ entry: Entry, by store: PhraseStore, at now: Date) -> Bool {
        self.store = store
        if entries.isEmpty { firstQueued = now }
        entries.append(entry)
        bytes += entry.data.count
        return bytes >= PhraseStore.packFlushBytes || now.timeIntervalSince(firstQueued) >= PhraseStore.packFlushAge
    }

    /// The queued entries; the queue is left empty.
    mutating func take() -> [Entry] {
        defer {
            entries = []
            bytes = 0
        }
        return entries
    }
}
