import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Phrase audio kept together: a run that stores audio writes it into one file, an **audio pack**, instead of a
/// file per phrase.
///
/// Creating a file was most of what the cache added to a cold render: on ext4, after many files were deleted
/// nearby, each new file spent 0.5-1 ms in the kernel looking for a free inode, and a render of one shipped
/// script made 5-11 phrase files (24 cold renders: 631 ms of CPU with the cache against 532 ms without).
///
/// Unlike timings, audio is large and mostly not needed: a render needs the few phrases its script says, not the
/// megabytes around them. So an audio pack ends with an **index**, read without the audio:
///
///     earshot audio pack 1\n
///     <entry bytes> <entry bytes> ...          each a whole phrase entry (its own key and checksum)
///     <name> <offset> <length>\n ...           one line per entry
///     index <offset of the index, 18 digits>\n
///
/// A reader loads each pack's index once (`open`, `fstat`, two `pread`s) and reads an entry with one `pread`
/// when asked for it, then checks it as it checks a phrase file. A pack whose last line or index is damaged is
/// skipped whole; an entry whose bytes are damaged is a miss.
///
/// Entries are queued and handed to the writer thread in batches (``queueAudio(_:as:serial:)``), which appends
/// them to a temporary file, so the audio is not held in memory for the whole run; a read in this process finds a
/// queued or appended entry at once. The pack gets its index and its name (like a timing pack's, ending in
/// `.audio`) when the run's writes finish, when it holds ``audioPackBytes``, or at the first entry appended after
/// it has been open ``packFlushAge``.
///
/// When two packs hold one name, the longer entry wins: every entry of a name is a start of the same audio (the
/// same request to the same synthesizer), and a longer one answers more requests. Packs count toward the bound,
/// are used and evicted as a whole. Small ones are merged: when a reader finds more than
/// ``audioPacksBeforeMerging`` packs under ``smallAudioPackBytes``, its writer thread copies their entries into
/// one and removes them, so their number stays bounded without copying large packs again.
extension PhraseStore {
    /// The first line of an audio pack.
    static let audioPackHeader = Data("earshot audio pack 1\n".utf8)
    /// An audio pack's file name extension.
    static let audioPackExtension = ".audio"
    /// The last line's start; the line is this, 18 digits and a newline.
    static let audioIndexTrailer = Data("index ".utf8)
    static var audioTrailerSize: Int { audioIndexTrailer.count + 19 }
    /// A pack under this size is small, and merged with the other small ones when they pile up.
    static let smallAudioPackBytes = 1 << 20
    /// A reader that finds more small audio packs than this merges them into one.
    static let audioPacksBeforeMerging = 8

    /// A process starts a new audio pack past this size: an eighth of the bound, at most 32 MiB, so the bound's
    /// eviction keeps part of a run longer than the bound (its start, see ``evict()``) rather than all or nothing.
    var audioPackBytes: Int { max(1, min(32 << 20, limit / 8)) }

    /// True for `<20 digits>-<digits>-<hex>.audio`.
    static func isAudioPackName(_ name: String) -> Bool {
        name.hasSuffix(audioPackExtension) && isPackName(String(name.dropLast(audioPackExtension.count)) + ".pack")
    }

    /// The index of the audio pack open as `descriptor`: each entry's name, offset and length, in order, and
    /// the file's size; nil when the last line or the index is not whole.
    static func audioIndex(of descriptor: Int32) -> (entries: [AudioPackEntry], size: Int)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(status.st_size)
        guard size >= audioPackHeader.count + audioTrailerSize,
            let trailer = readAt(descriptor, offset: size - audioTrailerSize, count: audioTrailerSize),
            trailer.starts(with: audioIndexTrailer), trailer.last == 0x0A,
            let start = decimal(trailer.dropFirst(audioIndexTrailer.count).dropLast()),
            start >= audioPackHeader.count, start <= size - audioTrailerSize,
            readAt(descriptor, offset: 0, count: audioPackHeader.count) == audioPackHeader,
            let lines = readAt(descriptor, offset: start, count: size - audioTrailerSize - start)
        else { return nil }
        var entries: [AudioPackEntry] = []
        var cursor = lines.startIndex
        while cursor < lines.endIndex {
            // `<name> <offset> <length>\n`, the entry lying between the header and the index.
            guard let newline = lines[cursor..<min(cursor + 128, lines.endIndex)].firstIndex(of: 0x0A) else {
                return nil
            }
            let fields = lines[cursor..<newline].split(separator: 0x20, omittingEmptySubsequences: false)
            guard fields.count == 3, isEntryName(utf8: fields[0]), let offset = decimal(Data(fields[1])),
                let length = decimal(Data(fields[2])), offset >= audioPackHeader.count, length <= start - offset
            else { return nil }
            entries.append(
                AudioPackEntry(name: String(decoding: fields[0], as: UTF8.self), offset: offset, length: length))
            cursor = newline + 1
        }
        return (entries, size)
    }

    /// The index of the audio pack at `path`, or nil.
    static func audioIndex(atPath path: String) -> (entries: [AudioPackEntry], size: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return audioIndex(of: descriptor)
    }

    /// `count` bytes at `offset` of `descriptor`, or nil when fewer are there.
    static func readAt(_ descriptor: Int32, offset: Int, count: Int) -> Data? {
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress?.advanced(by: done), count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        return complete ? data : nil
    }

    /// The bytes of entry `name` in the folder's audio packs (loading their indexes the first time), with the
    /// pack holding it; nil when no pack has it or it cannot be read.
    func audioPackEntry(_ name: String) -> (data: Data, pack: String)? {
        let state = Self.packState(for: folder)
        let needsMerge = state.lock.withLock { () -> Bool in
            guard !state.audioLoaded else { return false }
            state.audioLoaded = true
            loadAudioIndexes(into: state)
            return state.audioPacks.values.filter { $0 < Self.smallAudioPackBytes }.count > Self.audioPacksBeforeMerging
        }
        if needsMerge { Self.writer.submit { self.mergeAudioPacks() } }
        // A pack renamed or merged between the look-up and the read is looked up again, once.
        for _ in 0..<2 {
            guard let location = state.lock.withLock({ state.audioIndex[name] }) else { return nil }
            let descriptor = open(packFolder + "/" + location.pack, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            return Self.readAt(descriptor, offset: location.offset, count: location.length).map { ($0, location.pack) }
        }
        return nil
    }

    /// Reads the index of every audio pack in the folder (call with the state locked). Of two entries of one name,
    /// the longer is kept (of two as long, the later pack's).
    private func loadAudioIndexes(into state: PackState) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: packFolder)) ?? [])
            .filter(Self.isAudioPackName)
        for file in names.sorted() {
            guard let (entries, size) = Self.audioIndex(atPath: packFolder + "/" + file) else { continue }
            for var entry in entries {
                entry.pack = file
                if let known = state.audioIndex[entry.name], known.length > entry.length { continue }
                state.audioIndex[entry.name] = entry
            }
            state.audioPacks[file] = size
        }
    }

    /// Queues `data` as entry `name` for this process's audio pack; the writer thread appends the queue once it
    /// holds ``packFlushBytes``, once its first entry has waited ``packFlushAge``, or when writes finish: one
    /// hand-over to the writer thread per batch rather than per phrase.
    func queueAudio(_ data: Data, as name: String, serial: Int) {
        let state = Self.packState(for: folder)
        let now = Date()
        let due = state.lock.withLock { state.audio.add((name, data, serial), by: self, at: now) }
        if due { Self.writer.submit { self.appendQueuedAudio() } }
    }

    /// Appends the queued audio entries to the pack (on the writer thread); a failure is recorded
    /// (``recordBackgroundFailure(_:)``).
    func appendQueuedAudio() {
        let state = Self.packState(for: folder)
        let queued = state.lock.withLock { state.audio.take() }
        var failed = false
        for entry in queued where !failed {
            do {
                try appendToAudioPack(entry.data, as: entry.name)
            } catch {
                recordBackgroundFailure(error)
                failed = true
            }
        }
        Self.pendingLock.withLock {
            for entry in queued {
                let path = folder + "/" + entry.name
                if Self.pending[path]?.serial == entry.serial { Self.pending[path] = nil }
                Self.pendingBytes -= entry.data.count
            }
        }
    }

    /// Appends entry `name` to this process's audio pack for the folder, starting one when none is open, and ends
    /// the pack when it is full or old (on the writer thread).
    func appendToAudioPack(_ data: Data, as name: String) throws {
        let state = Self.packState(for: folder)
        let open = try state.lock.withLock { () -> OpenAudioPack in
            state.audio.store = state.audio.store ?? self
            if let open = state.writing { return open }
            let open = try startAudioPack()
            state.writing = open
            return open
        }
        let offset = open.size
        try Self.writeAll(data, to: open.descriptor)
        let now = Date()
        let full = state.lock.withLock { () -> Bool in
            open.size += data.count
            open.entries[name] = AudioPackEntry(name: name, offset: offset, length: data.count, pack: open.temporary)
            state.audioIndex[name] = open.entries[name]
            return open.size >= audioPackBytes || now.timeIntervalSince(open.started) >= Self.packFlushAge
        }
        if full { finishAudioPack() }
    }

    /// A new temporary audio pack in the packs folder, its header written.
    private func startAudioPack() throws -> OpenAudioPack {
        try Self.createFolder(packFolder)
        let temporary =
            Self.temporaryPrefix + "\(getpid())-audio-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let descriptor = open(packFolder + "/" + temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.posixError() }
        do {
            try Self.writeAll(Self.audioPackHeader, to: descriptor)
        } catch {
            close(descriptor)
            unlink(packFolder + "/" + temporary)
            throw error
        }
        return OpenAudioPack(temporary: temporary, descriptor: descriptor, size: Self.audioPackHeader.count)
    }

    /// Ends this process's open audio pack for the folder, if any: writes its index, stamps it as just used and
    /// renames it into place (on the writer thread). Counts its size against the bound.
    func finishAudioPack() {
        let state = Self.packState(for: folder)
        guard
            let open = state.lock.withLock({ () -> OpenAudioPack? in
                defer { state.writing = nil }
                return state.writing
            })
        else { return }
        defer { close(open.descriptor) }
        let temporaryPath = packFolder + "/" + open.temporary
        let index = Self.audioIndexBytes(open.entries.values.sorted { $0.offset < $1.offset }, start: open.size)
        let file = Self.packFileName(stamp: nil, extension: Self.audioPackExtension)
        do {
            try Self.writeAll(index, to: open.descriptor)
            var times = [Self.useStamp(), Self.useStamp()]
            times[0].tv_nsec = Self.leaveAccessTime
            _ = futimens(open.descriptor, &times)
            guard rename(temporaryPath, packFolder + "/" + file) == 0 else { throw Self.posixError() }
        } catch let error as POSIXError where error.code == .ENOENT {
            // Removed meanwhile (`earshot cache clear`, or an eviction that took it for a dead writer's): its entries
            // are misses next time.
            forget(open, in: state)
            return
        } catch {
            unlink(temporaryPath)
            forget(open, in: state)
            recordBackgroundFailure(error)
            return
        }
        state.lock.withLock {
            for name in open.entries.keys where state.audioIndex[name]?.pack == open.temporary {
                state.audioIndex[name]?.pack = file
            }
            if state.audioLoaded { state.audioPacks[file] = open.size + index.count }
        }
        noteWritten(pack: file, bytes: open.size + index.count)
    }

    /// Drops what the index knows of an audio pack that was not kept.
    private func forget(_ open: OpenAudioPack, in state: PackState) {
        state.lock.withLock {
            for name in open.entries.keys where state.audioIndex[name]?.pack == open.temporary {
                state.audioIndex[name] = nil
            }
        }
    }

    /// Copies the entries of the small audio packs this process loaded into one pack and removes them (on the
    /// writer thread). The merged pack is named after the newest of them.
    func mergeAudioPacks() {
        let state = Self.packState(for: folder)
        let (small, entries) = state.lock.withLock { () -> (Set<String>, [AudioPackEntry]) in
            let small = Set(state.audioPacks.filter { $0.value < Self.smallAudioPackBytes }.keys)
            let entries = state.audioIndex.values.filter { small.contains($0.pack) }.sorted { $0.name < $1.name }
            return (small, entries)
        }
        guard small.count > Self.audioPacksBeforeMerging, let newest = small.max() else { return }
        var kept: [(name: String, data: Data)] = []
        var descriptors: [String: Int32] = [:]
        defer { for descriptor in descriptors.values { close(descriptor) } }
        for entry in entries {
            if descriptors[entry.pack] == nil {
                descriptors[entry.pack] = open(packFolder + "/" + entry.pack, O_RDONLY | O_CLOEXEC)
            }
            guard let descriptor = descriptors[entry.pack], descriptor >= 0,
                let data = Self.readAt(descriptor, offset: entry.offset, count: entry.length)
            else { continue }  // removed by another process's merge or eviction: not carried over
            kept.append((entry.name, data))
        }
        let file: String
        do {
            file = try writeAudioPack(kept, stamp: String(newest.prefix(20)))
        } catch {
            return  // housekeeping: the packs stay as they were
        }
        guard let (written, size) = Self.audioIndex(atPath: packFolder + "/" + file) else {
            unlink(packFolder + "/" + file)  // the small packs stay as they were
            return
        }
        // The index names the merged pack before the small ones go: a read that finds its pack gone looks its entry
        // up again once, and must then find the merged pack, not the pack it just found gone.
        state.lock.withLock {
            for pack in small { state.audioPacks[pack] = nil }
            state.audioPacks[file] = size
            for var entry in written where small.contains(state.audioIndex[entry.name]?.pack ?? "") {
                entry.pack = file
                state.audioIndex[entry.name] = entry
            }
        }
        for pack in small { unlink(packFolder + "/" + pack) }
    }

    /// The bytes of an audio pack holding `entries`, in order.
    static func audioPack(_ entries: [(name: String, data: Data)]) -> Data {
        var pack = audioPackHeader
        var index: [AudioPackEntry] = []
        for entry in entries {
            index.append(AudioPackEntry(name: entry.name, offset: pack.count, length: entry.data.count))
            pack.append(entry.data)
        }
        pack.append(audioIndexBytes(index, start: pack.count))
        return pack
    }

    /// The end of an audio pack whose entries end at `start`: the index of `entries`, then the last line.
    static func audioIndexBytes(_ entries: [AudioPackEntry], start: Int) -> Data {
        var index = Data()
        for entry in entries { index.append(Data("\(entry.name) \(entry.offset) \(entry.length)\n".utf8)) }
        index.append(audioIndexTrailer)
        index.append(Data((zeroPadded(UInt64(start), width: 18) + "\n").utf8))
        return index
    }

    /// Writes `entries` as a new audio pack named after `stamp` (the time now when nil), through a temporary file
    /// renamed into place; returns its file name. Counts its size against the bound.
    @discardableResult
    func writeAudioPack(_ entries: [(name: String, data: Data)], stamp: String?) throws -> String {
        try Self.createFolder(packFolder)
        let file = Self.packFileName(stamp: stamp, extension: Self.audioPackExtension)
        let data = Self.audioPack(entries)
        try Self.writeAtomically(data, to: packFolder + "/" + file, temporaryIn: packFolder)
        noteWritten(pack: file, bytes: data.count)
        return file
    }

    /// Writes all of `data` at the descriptor's position.
    static func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw posixError() }
                offset += written
            }
        }
    }
}

/// Where an entry of an audio pack lies.
struct AudioPackEntry: Sendable {
    /// The entry's name, `<32 hex digits>.phrase`.
    var name: String
    /// Its first byte in the pack.
    var offset: Int
    /// Its length in bytes.
    var length: Int
    /// The pack's file name in `packs/` (its temporary name while this process writes it).
    var pack = ""
}

/// The audio pack a process is writing for a folder.
final class OpenAudioPack: @unchecked Sendable {
    /// Its temporary file name in `packs/`.
    let temporary: String
    /// Open for writing at its end.
    let descriptor: Int32
    /// Bytes written so far.
    var size: Int
    /// Its entries by name (an entry written again replaces the earlier one in the index).
    var entries: [String: AudioPackEntry] = [:]
    /// When it was started.
    let started = Date()

    init(temporary: String, descriptor: Int32, size: Int) {
        self.temporary = temporary
        self.descriptor = descriptor
        self.size = size
    }
}
