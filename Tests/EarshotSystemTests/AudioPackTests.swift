import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

/// A run's audio is kept in audio packs (one file per run, ended by an index): a later run reads an entry through
/// the index, the longer entry of a name wins, damage costs only what it touches, small packs are merged, a long
/// run starts new packs so the bound keeps most of it, and packs are used, evicted, counted and cleared whole.
@Suite(.serialized) struct AudioPackTests {
    static func audioPacks(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/packs")) ?? [])
            .filter(PhraseStore.isAudioPackName).sorted()
    }

    /// The names the audio packs on disk hold, by their indexes.
    static func audioPackedNames(in folder: String) -> [String] {
        audioPacks(in: folder).flatMap { pack in
            PhraseStore.audioIndex(atPath: folder + "/packs/" + pack)?.entries.map(\.name) ?? []
        }
    }

    static func entry(_ number: Int, bytes: Int) -> (name: String, data: Data) {
        (PhrasePackTests.name(number), Data(repeating: UInt8(number % 256), count: bytes))
    }

    /// A whole, valid phrase entry of `frames` silent frames (what the audit accepts).
    static func wellFormedEntry(_ number: Int, frames: Int = 50) -> (name: String, data: Data) {
        let speech = SynthesizedSpeech(samples: [Int16](repeating: 0, count: frames), sampleRate: 22_050, words: [])
        return (PhrasePackTests.name(number), PhraseEntry(key: "entry \(number)", speech: speech).encoded())
    }

    @Test func aRunsAudioGoesIntoAPackThatTheNextRunReadsThroughItsIndex() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (writer, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let phrases = ["Results updated", "Order 1042 is ready.", "Pay now, button"]
        let first = try phrases.map { try writer.synthesize($0, voice: .standard) }
        PhraseCache.finishWrites()
        #expect(PhrasePackTests.entryFiles(in: folder).isEmpty, "no file per phrase")
        // One pack, or two if another test's end of writes (same process) came in between.
        #expect((1...2).contains(Self.audioPacks(in: folder).count), "\(Self.audioPacks(in: folder))")
        #expect(Self.audioPackedNames(in: folder).count == 3)
        PhrasePackTests.newProcess(folder)
        let reader = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        let read = try phrases.map { try reader.synthesize($0, voice: .standard) }
        #expect(reader.statistics.syntheses == 0 && reader.statistics.hits == 3, "\(reader.statistics)")
        let same = zip(first, read).allSatisfy { $0.samples == $1.samples && $0.words == $1.words }
        #expect(same)
        #expect(PhraseCache.Folder(path: folder).usage().files == 3)
    }

    /// Ending a pack runs on the writer thread: while the writer is held, the pack stays open, and what was
    /// appended to it is already found.
    @Test func anAppendedEntryIsFoundBeforeItsPackIsNamed() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30, writesInBackground: true)
        let (name, data) = Self.entry(1, bytes: 5_000)
        let release = PhraseStore.holdWriter()
        try store.appendToAudioPack(data, as: name)
        let pack = store.audioPack(holding: name)
        let readWhileOpen = store.read(name)
        let namedPacks = Self.audioPacks(in: folder)
        release()
        PhraseStore.finishWrites()
        #expect(pack?.hasPrefix(PhraseStore.temporaryPrefix) == true, "\(pack ?? "none")")
        #expect(readWhileOpen == data)
        #expect(namedPacks.isEmpty)
        #expect(Self.audioPacks(in: folder).count == 1)
        #expect(store.read(name) == data, "found under the pack's name")
        PhrasePackTests.newProcess(folder)
        #expect(store.read(name) == data)
    }

    @Test(arguments: [false, true])
    func theLongerEntryOfANameWinsWhicheverPackIsNewer(longerIsNewer: Bool) throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        let short = Data("a start".utf8)
        let long = Data("a start, and the rest of it".utf8)
        let name = PhrasePackTests.name(1)
        let (older, newer) = longerIsNewer ? (short, long) : (long, short)
        try store.writeAudioPack([(name, older)], stamp: "00000000000000000001")
        try store.writeAudioPack([(name, newer)], stamp: "00000000000000000002")
        PhrasePackTests.newProcess(folder)
        #expect(store.read(name) == long)
    }

    /// What a damaged pack's index or last line looks like, and whether the pack can still be read.
    enum IndexDamage: String, CaseIterable, Sendable {
        case cutShort, wrongIndexOffset, indexOffsetPastTheEnd, lastLineRenamed, garbledIndexLine, lineWithAFourthField
        case entryPastTheIndex, noHeader
    }

    @Test(arguments: IndexDamage.allCases)
    func aPackWhoseIndexIsDamagedIsSkippedWholeAndTheAuditNamesIt(damage: IndexDamage) throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        let entries = (1...3).map { Self.wellFormedEntry($0) }
        let damaged = try store.writeAudioPack(entries, stamp: nil)
        try store.writeAudioPack([Self.wellFormedEntry(4)], stamp: nil)
        let path = folder + "/packs/" + damaged
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let index = try #require(PhraseStore.audioIndex(atPath: path)).entries
        #expect(index.map(\.name) == entries.map(\.name))
        PhrasePackTests.newProcess(folder)
        #expect(store.read(entries[1].name) == entries[1].data, "whole, it is read")
        #expect(PhraseCache.Folder(path: folder).damagedEntries().isEmpty)
        let start = index[2].offset + index[2].length
        func line(_ entry: AudioPackEntry) -> String { "\(entry.name) \(entry.offset) \(entry.length)" }
        // Byte for byte: the entries' bytes are not text.
        func replacing(_ old: String, with new: String) -> Data {
            guard let range = original.range(of: Data(old.utf8)) else { return original }
            var bytes = original
            bytes.replaceSubrange(range, with: Data(new.utf8))
            return bytes
        }
        var bytes = original
        switch damage {
        case .cutShort: bytes.removeLast()
        case .wrongIndexOffset:
            bytes = replacing(String(format: "index %018d", start), with: String(format: "index %018d", start + 1))
        case .indexOffsetPastTheEnd:
            bytes = replacing(String(format: "index %018d", start), with: String(format: "index %018d", start + 10_000))
        case .lastLineRenamed: bytes = replacing("\nindex ", with: "\nINDEX ")
        case .lineWithAFourthField: bytes = replacing(line(index[1]), with: line(index[1]) + " 1")
        case .garbledIndexLine:
            bytes = replacing(line(index[1]), with: line(index[1]).replacingOccurrences(of: " ", with: "x"))
        case .entryPastTheIndex:
            bytes = replacing(line(index[2]), with: "\(index[2].name) \(index[2].offset) \(index[2].length + 1)")
        case .noHeader: bytes[0] = UInt8(ascii: "E")
        }
        #expect(bytes.count >= original.count - 1 && bytes != original, "damage was done")
        let sizeChange = ["cutShort": -1, "lineWithAFourthField": 2][damage.rawValue] ?? 0
        #expect(bytes.count == original.count + sizeChange, "only the damaged bytes changed")
        try bytes.write(to: URL(fileURLWithPath: path))
        PhrasePackTests.newProcess(folder)
        for entry in entries { #expect(store.read(entry.name) == nil, "\(entry.name)") }
        #expect(store.read(PhrasePackTests.name(4)) == Self.wellFormedEntry(4).data, "another pack is unharmed")
        #expect(PhraseCache.Folder(path: folder).damagedEntries() == ["packs/" + damaged])
    }

    @Test func anEntryWhoseBytesAreDamagedIsAMissAloneAndTheAuditNamesItsPack() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let synthesizer = try SpeechFixtures.synthesizer()
        let identity = PhraseCacheTests.identity(synthesizer)
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        let phrases = ["Results updated", "Pay now, button"]
        let entries = try phrases.map { text in
            let key = PhraseKey(text: text, voice: .standard, identity: identity)
            let speech = try synthesizer.synthesize(text, voice: .standard, frameLimit: nil)
            return (key.fileName, PhraseEntry(key: key.canonical, speech: speech).encoded())
        }
        let pack = try store.writeAudioPack(entries, stamp: nil)
        #expect(PhraseCache.Folder(path: folder).damagedEntries().isEmpty)
        let path = folder + "/packs/" + pack
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let sample = PhraseStore.audioPackHeader.count + entries[0].1.count / 2
        bytes[sample] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
        PhrasePackTests.newProcess(folder)
        let reader = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        _ = try phrases.map { try reader.synthesize($0, voice: .standard) }
        let statistics = reader.statistics
        #expect(statistics.damaged == 1 && statistics.syntheses == 1 && statistics.hits == 1, "\(statistics)")
        #expect(PhraseCache.Folder(path: folder).damagedEntries() == ["packs/" + pack])
    }

    /// More than ``PhraseStore/audioPacksBeforeMerging`` small packs are merged by the next reader; a large pack
    /// is never copied again.
    @Test(arguments: [8, 9])
    func smallPacksAreMergedOnceTheyPileUpAndLargeOnesAreLeftAlone(smallPacks: Int) throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30, writesInBackground: true)
        let large = try store.writeAudioPack([Self.entry(100, bytes: PhraseStore.smallAudioPackBytes)], stamp: nil)
        for number in 1...smallPacks { try store.writeAudioPack([Self.entry(number, bytes: 1_000)], stamp: nil) }
        PhrasePackTests.newProcess(folder)
        #expect(store.read(PhrasePackTests.name(1)) == Self.entry(1, bytes: 1_000).data)
        PhraseStore.finishWrites()
        let packs = Self.audioPacks(in: folder)
        #expect(packs.count == (smallPacks > PhraseStore.audioPacksBeforeMerging ? 2 : smallPacks + 1), "\(packs)")
        #expect(packs.contains(large))
        PhrasePackTests.newProcess(folder)
        for number in 1...smallPacks {
            #expect(store.read(PhrasePackTests.name(number)) == Self.entry(number, bytes: 1_000).data, "\(number)")
        }
        #expect(store.read(PhrasePackTests.name(100))?.count == PhraseStore.smallAudioPackBytes)
    }

    /// A read that starts the merge finds its entry whatever the merge is doing meanwhile: the merged pack is in the
    /// index before the small ones go. (The small packs were removed first, and a read that looked its entry up in
    /// one of them, found it gone and looked again before the index named the merged pack, missed: about one read
    /// in twenty on a busy machine.)
    @Test func aReadRacingTheMergeItStartedFindsItsEntry() throws {
        var misses: [Int] = []
        for trial in 0..<60 {
            let folder = PhraseCacheTests.folder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = PhraseStore(folder: folder, limit: 1 << 30, writesInBackground: true)
            for number in 1...9 { try store.writeAudioPack([Self.entry(number, bytes: 1_000)], stamp: nil) }
            PhrasePackTests.newProcess(folder)
            let number = trial % 9 + 1
            if store.read(PhrasePackTests.name(number)) != Self.entry(number, bytes: 1_000).data {
                misses.append(trial)
            }
            PhraseStore.finishWrites()
            #expect(Self.audioPacks(in: folder).count == 1, "trial \(trial): the nine small packs are merged")
        }
        #expect(misses.isEmpty, "trials whose read missed: \(misses)")
    }

    /// A pack is ended past an eighth of the bound, so the bound can keep part of a long run, not all or nothing.
    @Test(arguments: [80_000, 1 << 30])
    func aLongRunStartsANewPackPastAnEighthOfTheBound(limit: Int) throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: limit, writesInBackground: true)
        for number in 1...20 {
            let (name, data) = Self.entry(number, bytes: 3_000)
            try store.write(data, as: name)
        }
        PhraseStore.finishWrites()
        let packs = Self.audioPacks(in: folder)
        // Another test's end of writes (same process) may end a pack early, never late.
        if limit == 80_000 {
            #expect(packs.count >= 5, "\(packs)")
            let sizes = packs.compactMap { PhraseStore.audioIndex(atPath: folder + "/packs/" + $0)?.size }
            #expect(sizes.allSatisfy { $0 < 10_000 + 3_000 + 1_000 }, "\(sizes)")
        } else {
            #expect((1...2).contains(packs.count), "\(packs)")
        }
        PhrasePackTests.newProcess(folder)
        for number in 1...20 { #expect(store.read(PhrasePackTests.name(number))?.count == 3_000, "\(number)") }
    }

    /// One run of a scenario longer than the bound, as a render makes it: each phrase is read from the cache, and
    /// written when it was not there. Returns how many were read.
    static func runLongerThanTheBound(_ store: PhraseStore, phrases: ClosedRange<Int>) throws -> Int {
        var hits = 0
        for number in phrases {
            let (name, data) = Self.entry(number, bytes: 3_000)
            if let found = store.read(name) {
                #expect(found == data, "\(number)")
                store.touch(name)
                hits += 1
            } else {
                try store.write(data, as: name)
            }
        }
        PhraseStore.finishWrites()
        return hits
    }

    /// A run longer than the bound keeps its start, and every later run of it finds that start. With plain
    /// least-recently-used eviction the first run kept its end, and the next one, asking for its start first,
    /// stored audio that evicted the end before it got there: no run ever found anything.
    @Test func aRunLongerThanTheBoundKeepsItsStartForEveryLaterRun() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = 80_000
        let store = PhraseStore(folder: folder, limit: limit, writesInBackground: true)
        let phrases = 1...60  // 180,000 bytes of audio
        #expect(try Self.runLongerThanTheBound(store, phrases: phrases) == 0)
        #expect(PhraseCache.Folder(path: folder).usage().bytes <= limit)
        PhrasePackTests.newProcess(folder)
        #expect(store.read(PhrasePackTests.name(1)) != nil, "the run's start is kept")
        #expect(store.read(PhrasePackTests.name(60)) == nil, "its end is not")
        PhrasePackTests.newProcess(folder)
        let kept = AudioPackTests.audioPacks(in: folder)
        let second = try Self.runLongerThanTheBound(store, phrases: phrases)
        // The bound holds nine tenths of 80,000 bytes: about twenty entries of 3,000 (packs of an eighth of it).
        #expect(second >= 15, "\(second) phrases found")
        #expect(PhraseCache.Folder(path: folder).usage().bytes <= limit)
        #expect(AudioPackTests.audioPacks(in: folder) == kept, "what the second run stored is what it evicted")
        let state = PhraseStore.packState(for: folder)
        #expect(state.lock.withLock { state.audioFull }, "the run stores no more audio")
        PhrasePackTests.newProcess(folder)
        #expect(try Self.runLongerThanTheBound(store, phrases: phrases) == second, "every later run finds as much")
    }

    /// When what a run read fills more than the bound by itself (the bound was lowered since), the packs it read
    /// last go first: the scenario's start stays.
    @Test func underALowerBoundTheRunsStartStillStays() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = PhraseStore(folder: folder, limit: 80_000, writesInBackground: true)
        #expect(try Self.runLongerThanTheBound(first, phrases: 1...60) == 0)
        PhrasePackTests.newProcess(folder)
        let lower = PhraseStore(folder: folder, limit: 40_000, writesInBackground: true)
        #expect(try Self.runLongerThanTheBound(lower, phrases: 1...60) >= 15)
        #expect(PhraseCache.Folder(path: folder).usage().bytes <= 40_000)
        PhrasePackTests.newProcess(folder)
        #expect(lower.read(PhrasePackTests.name(1)) != nil, "the start stays")
        #expect(lower.read(PhrasePackTests.name(20)) == nil, "what no longer fits goes")
    }

    /// Once the bound evicted audio a run wrote, the run stores no more audio (it would only evict more of its own),
    /// but still its timings.
    @Test func aRunWhoseAudioTheBoundEvictedStoresNoMoreAudio() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30, writesInBackground: true)
        let state = PhraseStore.packState(for: folder)
        state.lock.withLock { state.audioFull = true }
        let audio = Self.entry(1, bytes: 3_000)
        let timing = (PhrasePackTests.name(2), Data(TimingEntry.magic + [1, 2, 3]))
        try store.write(audio.data, as: audio.name)
        try store.write(timing.1, as: timing.0)
        PhraseStore.finishWrites()
        #expect(store.read(audio.name) == nil)
        PhrasePackTests.newProcess(folder)
        #expect(store.read(audio.name) == nil && Self.audioPacks(in: folder).isEmpty)
        #expect(store.read(timing.0) == timing.1)
    }

    /// Through the phrase cache (real espeak-ng): a phrase synthesized once the run stores no more audio is
    /// answered as ever, neither stored nor counted as stored, and the run is told once why.
    @Test func aCacheThatStoresNoMoreAudioStillAnswersCountsNoStoreAndSaysSoOnce() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (_, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let warnings = Warnings()
        let cache = PhraseCache(
            base: synthesizer, identity: identity, folder: folder, limit: 8 << 20, writesInBackground: true,
            warn: { warnings.add($0) })
        let texts = ["Your order is on the way.", "It arrives in twelve minutes."]
        _ = try cache.synthesize(texts[0], voice: .standard)
        #expect(warnings.messages.isEmpty, "nothing to say while the run stores its audio")
        let state = PhraseStore.packState(for: folder)
        state.lock.withLock { state.audioFull = true }
        let speech = try cache.synthesize(texts[1], voice: .standard)
        _ = try cache.synthesize(texts[1], voice: .standard, frameLimit: 100)
        PhraseCache.finishWrites()
        #expect(speech.samples == (try synthesizer.synthesize(texts[1], voice: .standard, frameLimit: nil)).samples)
        #expect(cache.statistics.syntheses == 3 && cache.statistics.stores == 1, "\(cache.statistics)")
        #expect(warnings.messages.count == 1, "\(warnings.messages)")
        #expect(warnings.messages.first?.contains("8.0 MB") == true, "\(warnings.messages)")
        PhrasePackTests.newProcess(folder)
        let next = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        _ = try next.synthesize(texts[1], voice: .standard)
        #expect(next.statistics.hits == 0 && next.statistics.stores == 1, "\(next.statistics)")
    }

    /// A voice espeak-ng accepted is remembered even once the run stores no more audio: the record holds none.
    @Test func aVoiceAcceptedAfterTheRunStoresNoMoreAudioIsStillRemembered() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let state = PhraseStore.packState(for: folder)
        state.lock.withLock { state.audioFull = true }
        var voice = VoiceProfile.standard
        voice.variant = "f3"
        cache.recordValid(voice)
        #expect(cache.knowsValid(voice), "this run knows it at once")
        PhraseCache.finishWrites()
        PhrasePackTests.newProcess(folder)
        let next = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        #expect(next.knowsValid(voice), "the next run remembers it")
        #expect(!next.knowsValid(.standard), "only the voice that was recorded")
    }

    /// A cache from before accepted voices were kept with the timings holds them as empty phrase entries: the voice
    /// is checked once more, and from then on the new record answers.
    @Test func aVoiceAcceptedInTheOldFormIsCheckedOnceMoreThenRemembered() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let (canonical, name) = PhraseKey(text: "", voice: .standard, identity: identity, purpose: .voiceCheck).filing
        let old = PhraseEntry(
            key: canonical, speech: SynthesizedSpeech(samples: [], sampleRate: synthesizer.sampleRate, words: []))
        try PhraseStore(folder: folder, limit: 1 << 30, writesInBackground: true).write(old.encoded(), as: name)
        PhraseCache.finishWrites()
        PhrasePackTests.newProcess(folder)
        #expect(!cache.knowsValid(.standard), "the old record is not taken for the new one")
        cache.recordValid(.standard)
        PhraseCache.finishWrites()
        PhrasePackTests.newProcess(folder)
        let next = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        #expect(next.knowsValid(.standard), "the new record answers, beside the old one")
    }

    /// What a run neither read nor wrote still goes first, least recently used first.
    @Test func anotherRunsPacksGoBeforeThisRunsOwn() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 80_000, writesInBackground: true)
        #expect(try Self.runLongerThanTheBound(store, phrases: 101...110) == 0)
        let other = AudioPackTests.audioPacks(in: folder)
        PhrasePackTests.newProcess(folder)
        #expect(try Self.runLongerThanTheBound(store, phrases: 1...60) == 0)
        #expect(Set(AudioPackTests.audioPacks(in: folder)).isDisjoint(with: other), "the other run's packs went")
        PhrasePackTests.newProcess(folder)
        #expect(store.read(PhrasePackTests.name(1)) != nil, "this run's start stayed")
    }

    @Test func clearRemovesAudioPacksAndCountsTheirEntries() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        try store.writeAudioPack((1...3).map { Self.entry($0, bytes: 10) }, stamp: nil)
        try store.writePack((4...5).map { (PhrasePackTests.name($0), Data("x".utf8)) }, stamp: nil)
        try store.write(Data("a file".utf8), as: PhrasePackTests.name(9))
        #expect(PhraseCache.Folder(path: folder).usage().files == 6)
        let removed = PhraseCache.Folder(path: folder).clear()
        #expect(removed.files == 6)
        #expect(Self.audioPacks(in: folder).isEmpty)
        #expect(store.read(PhrasePackTests.name(1)) == nil, "a cleared entry is not remembered")
    }
}
