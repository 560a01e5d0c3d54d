import EarshotCore
import Foundation

/// A synthesizer that remembers, on disk, what another one said: a persistent phrase cache.
///
/// Each answer the wrapped synthesizer gives (samples, word starts, whether it stopped at the frame limit) is
/// stored as one file in the cache folder, under a ``PhraseKey``; the same request in a later run, or in
/// another process, is answered from the file. A whole phrase answers any frame limit; a phrase stopped
/// early at N frames answers limits up to N, and a longer synthesis replaces it. Answers from the cache are
/// exactly what the synthesizer returns for that request (espeak-ng's are the same for the same key in every
/// process), so a cached run's output is byte for byte a cold run's.
///
/// It is also the speech library's ``TimingStore``: the timing aligned from an answer (length, where each word
/// becomes audible) is stored on its own, a few hundred bytes, so a headless check needs no audio at all.
///
/// Entries are validated when read (format, key, length, checksum): a damaged or truncated one is a miss and is
/// replaced. No lock is held while synthesizing; writes are atomic (see ``PhraseStore``), so processes sharing
/// the folder are safe. When the folder cannot be written, `warn` is called once (on the writer thread when the
/// write failed there) and the run goes on without storing (and says the same things).
public final class PhraseCache: Synthesizer, @unchecked Sendable {
    /// The cache format's version: bump it when the entry layout or the key's meaning changes, or when what the
    /// synthesizer returns for the same request changes without espeak-ng's version changing (the shim's chunk,
    /// event or frame-limit rules): entries of another version are never read.
    public static let formatVersion = 1
    /// The extension of entry files.
    public static let entryExtension = "phrase"
    /// The default bound on the folder's size: 512 MiB.
    public static let defaultLimit = 512 << 20

    /// Everything about the synthesizer that changes its audio besides text and voice.
    public struct Identity: Hashable, Sendable {
        /// The engine's version (espeak-ng's, for example `1.51`).
        public var engineVersion: String
        /// ``TextNormalizer/version``: what the text given to the synthesizer was made by.
        public var normalizerVersion: Int
        /// The fingerprint of the custom variants and of espeak-ng's data folder they join.
        public var variantsFingerprint: String
        /// Frames per second.
        public var sampleRate: Int

        /// Creates an identity.
        public init(engineVersion: String, normalizerVersion: Int, variantsFingerprint: String, sampleRate: Int) {
            self.engineVersion = engineVersion
            self.normalizerVersion = normalizerVersion
            self.variantsFingerprint = variantsFingerprint
            self.sampleRate = sampleRate
        }
    }

    /// What the cache did so far.
    public struct Statistics: Hashable, Sendable {
        /// Requests answered from the folder.
        public var hits = 0
        /// Requests passed on to the synthesizer.
        public var syntheses = 0
        /// Entries written.
        public var stores = 0
        /// Entries found damaged (and replaced by a fresh synthesis).
        public var damaged = 0
    }

    /// The wrapped synthesizer.
    public let base: any Synthesizer
    /// The synthesizer's identity, part of every key.
    public let identity: Identity
    /// The folder of entries.
    public var folder: String { store.folder }

    private let store: PhraseStore
    /// Whether synthesized audio is written (timings always are).
    public let storesAudio: Bool
    private let warn: @Sendable (String) -> Void
    private let lock = NSLock()
    private var counters = Statistics()
    /// Whether entries are still written; the store's failure handler shares it (see ``stopWriting(after:)``).
    private let writing = WriteSwitch()
    private var toldFull = false

    /// Wraps `base`, keeping entries in `folder` up to `limit` bytes; `warn` gets one message if the folder
    /// cannot be written.
    ///
    /// With `writesInBackground`, new entries are written by a writer thread while the run goes on (a run that
    /// synthesizes a lot does not wait for the disk); call ``finishWrites()`` before the process ends, or the
    /// entries still queued are lost (which only makes them misses next time).
    ///
    /// Without `storesAudio` (a headless check), answers are still read from the folder, but only timings are
    /// written to it: the audio a check synthesized is of no use to it later, and writing it costs more than
    /// the rest of the check.
    public init(
        base: any Synthesizer, identity: Identity, folder: String, limit: Int = PhraseCache.defaultLimit,
        writesInBackground: Bool = false, storesAudio: Bool = true, warn: @escaping @Sendable (String) -> Void
    ) {
        self.base = base
        self.storesAudio = storesAudio
        self.identity = identity
        self.store = PhraseStore(folder: folder, limit: limit, writesInBackground: writesInBackground)
        self.warn = warn
        // The handler must not keep the cache alive: a run's cache is gone by the time its last writes fail.
        let (writing, folder) = (writing, store.folder)
        store.reportBackgroundFailures { Self.stopWriting(after: $0, writing: writing, folder: folder, warn: warn) }
    }

    /// Hands the timings queued for this process's pack to the writer thread without waiting, so they reach the
    /// folder even if the process is then stopped (`check --watch` calls it after each run).
    public static func writeQueuedPacks() {
        PhraseStore.flushAllPacks()
    }

    /// Waits until every entry queued by a cache in this process is written.
    public static func finishWrites() {
        PhraseStore.finishWrites()
    }

    /// Frames per second of the wrapped synthesizer.
    public var sampleRate: Int { base.sampleRate }

    /// The work done so far.
    public var statistics: Statistics { lock.withLock { counters } }

    /// Answers from the folder when an entry holds the request, else synthesizes and stores the answer.
    public func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
        let (canonical, name) = PhraseKey(text: text, voice: voice, identity: identity).filing
        let data = store.read(name)
        let entry = data.flatMap { PhraseEntry(decoding: $0, key: canonical) }
        if let entry, let answer = entry.answer(frameLimit: frameLimit) {
            store.touch(name)
            lock.withLock { counters.hits += 1 }
            return answer
        }
        let speech = try base.synthesize(text, voice: voice, frameLimit: frameLimit)
        let damaged = data != nil && entry == nil
        lock.withLock {
            counters.syntheses += 1
            if damaged { counters.damaged += 1 }
        }
        guard writing.isOn, storesAudio, !(entry?.covers(speech) ?? false) else { return speech }
        // Once the bound evicted this run's own audio, encoding more for the store would be work thrown away.
        guard store.acceptsAudio else {
            tellFullOnce()
            return speech
        }
        write(PhraseEntry(key: canonical, speech: speech).encoded(), as: name)
        return speech
    }

    /// Says once that the bound keeps only the start of this run's audio: a user who renders the same long
    /// scenario again would otherwise wonder why the second render is only partly faster.
    private func tellFullOnce() {
        let first = lock.withLock { () -> Bool in
            defer { toldFull = true }
            return !toldFull
        }
        guard first else { return }
        warn(
            "note: the phrase cache's size bound (\(Self.sizeText(store.limit))) holds only the start of this run's "
                + "audio; the rest is not stored, and the next run synthesizes it again (EARSHOT_CACHE_SIZE sets "
                + "the bound)")
    }

    /// A byte count for people: `12.3 MB`, `512 bytes`.
    public static func sizeText(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }

    /// Writes an entry; the first failure warns and stops all writing.
    private func write(_ data: Data, as name: String) {
        do {
            if try store.write(data, as: name) { lock.withLock { counters.stores += 1 } }
        } catch {
            stopWriting(after: error)
        }
    }

    /// Stops all writing after a failed write, here or on the writer thread; warns the first time. A failure on
    /// the writer thread is told as it happens, so one in the writes that end a run (``finishWrites()``) is told
    /// before the run ends.
    private func stopWriting(after error: any Error) {
        Self.stopWriting(after: error, writing: writing, folder: store.folder, warn: warn)
    }

    private static func stopWriting(
        after error: any Error, writing: WriteSwitch, folder: String, warn: @Sendable (String) -> Void
    ) {
        guard writing.turnOff() else { return }
        warn(
            "warning: cannot write the phrase cache in \(folder) (\(SystemReason.of(error))); the phrases this run "
                + "did not store are synthesized again next time")
    }

    /// True when a run with this identity already found `voice` acceptable (``recordValid(_:)``), so it need not
    /// be checked with espeak-ng again.
    public func knowsValid(_ voice: VoiceProfile) -> Bool {
        let (canonical, name) = PhraseKey(text: "", voice: voice, identity: identity, purpose: .voiceCheck).filing
        guard let data = store.read(name), TimingEntry(decoding: data, key: canonical) != nil else { return false }
        store.touch(name)
        return true
    }

    /// Records that espeak-ng accepted `voice` (its voice, variant and values), for ``knowsValid(_:)``: an empty
    /// timing entry, stored with the timings, so a run that stores no more audio still records it.
    public func recordValid(_ voice: VoiceProfile) {
        guard writing.isOn else { return }
        let (canonical, name) = PhraseKey(text: "", voice: voice, identity: identity, purpose: .voiceCheck).filing
        let nothing = SpeechTiming(
            text: "", frameCount: 0, sampleRate: sampleRate, words: [], spokenText: "", decidedFrames: nil)
        _ = try? store.write(TimingEntry(key: canonical, timing: nothing).encoded(), as: name)
    }
}

extension PhraseCache: TimingStore {
    /// The timing stored for `speechText` spoken by `voice`, or nil (a damaged entry is a miss).
    public func timing(of speechText: SpeechText, voice: VoiceProfile, sampleRate: Int) -> SpeechTiming? {
        let (canonical, name) = PhraseKey.timing(of: speechText, voice: voice, identity: identity).filing
        guard let data = store.read(name) else { return nil }
        guard let entry = TimingEntry(decoding: data, key: canonical), entry.sampleRate == sampleRate else {
            lock.withLock { counters.damaged += 1 }
            return nil
        }
        store.touch(name)
        lock.withLock { counters.hits += 1 }
        return entry.timing(of: speechText)
    }

    /// Keeps `timing` of `speechText` spoken by `voice` (the speech library gives only timings longer than what
    /// it had).
    public func store(_ timing: SpeechTiming, of speechText: SpeechText, voice: VoiceProfile) {
        guard writing.isOn else { return }
        let (canonical, name) = PhraseKey.timing(of: speechText, voice: voice, identity: identity).filing
        write(TimingEntry(key: canonical, timing: timing).encoded(), as: name)
    }
}

extension PhraseCache {
    /// A cache folder seen from outside a run: what `earshot cache` shows and clears.
    public struct Folder: Sendable {
        private let store: PhraseStore

        /// The folder of entries at `path`, bounded by `limit` bytes.
        public init(path: String, limit: Int = PhraseCache.defaultLimit) {
            store = PhraseStore(folder: path, limit: limit)
        }

        /// How many entries the folder holds and their total size in bytes.
        public func usage() -> (files: Int, bytes: Int) { store.usage() }

        /// The entries that are not whole, valid entries (wrong format, truncated, checksum mismatch), by name; a
        /// pack (`packs/…`) is named when it is cut short or holds such an entry.
        public func damagedEntries() -> [String] {
            store.scan().entries.map(\.name).filter { name in
                let path = store.folder + "/" + name
                guard let data = store.readWhole(path) else { return false }  // evicted meanwhile
                guard name.hasPrefix(PhraseStore.packFolderName + "/") else { return !PhraseEntry.isWellFormed(data) }
                if PhraseStore.isAudioPackName((name as NSString).lastPathComponent) {
                    guard let index = PhraseStore.audioIndex(atPath: path) else { return true }
                    return !index.entries.allSatisfy { entry in
                        PhraseEntry.isWellFormed(data.subdata(in: entry.offset..<entry.offset + entry.length))
                    }
                }
                let unpacked = PhraseStore.unpack(data)
                return !unpacked.whole || !unpacked.entries.allSatisfy { PhraseEntry.isWellFormed($0.data) }
            }
        }

        /// Temporary files in the folder and its packs folder (writes in progress, or left by a writer that died).
        public func temporaryFiles() -> [String] {
            let manager = FileManager.default
            let packs = ((try? manager.contentsOfDirectory(atPath: store.packFolder)) ?? []).map {
                PhraseStore.packFolderName + "/" + $0
            }
            return (((try? manager.contentsOfDirectory(atPath: store.folder)) ?? []) + packs)
                .filter { ($0 as NSString).lastPathComponent.hasPrefix(PhraseStore.temporaryPrefix) }.sorted()
        }

        /// Removes every entry (and temporary file the cache left); nothing else. Returns files and bytes removed.
        public func clear() -> (files: Int, bytes: Int) { store.clear() }
    }
}

/// Whether a phrase cache still writes: on until a write fails.
private final class WriteSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var on = true

    var isOn: Bool { lock.withLock { on } }

    /// Turns writing off; true only the first time.
    func turnOff() -> Bool {
        lock.withLock {
            defer { on = false }
            return on
        }
    }
}
