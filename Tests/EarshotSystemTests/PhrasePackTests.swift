import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

/// Small entries are kept in packs (one file per run): found again by any later reader, the newest entry of a
/// name winning, merged when they pile up, bounded and cleared like entries, and a damaged pack costs only what
/// it cannot prove whole.
@Suite(.serialized) struct PhrasePackTests {
    static func name(_ number: Int) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits + ".phrase"
    }

    static func packs(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/packs")) ?? []).filter(PhraseStore.isPackName)
            .sorted()
    }

    /// The names of the entries in the packs on disk.
    static func packedNames(in folder: String) -> Set<String> {
        var names: Set<String> = []
        for pack in packs(in: folder) {
            guard let data = FileManager.default.contents(atPath: folder + "/packs/" + pack) else { continue }
            for entry in PhraseStore.unpack(data).entries { names.insert(entry.name) }
        }
        return names
    }

    static func entryFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(PhraseStore.isEntryName)
    }

    /// What a reader in a new process knows: nothing of the folder's packs yet.
    static func newProcess(_ folder: String) {
        PhraseStore(folder: folder, limit: 1 << 30).forgetPacks()
    }

    /// Entries with a file of their own (a store writing in the foreground, a library user's, leaves one per entry)
    /// are listed with the packs: a phrase in neither is a miss without asking the folder for its file. So a file
    /// another process writes after the listing is a miss, as a pack written then is; a listed file, or one this
    /// process writes, is found.
    @Test func entriesWithAFileOfTheirOwnAreListedWithThePacks() throws {
        let folder = PhraseCacheTests.folder()
        let elsewhere = PhraseCacheTests.folder()
        defer { for path in [folder, elsewhere] { try? FileManager.default.removeItem(atPath: path) } }
        let (_, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let texts = ["Listed", "Written after the listing", "Written by this process"].map {
            SpeechText(verbatim: $0)
        }
        func timing(_ text: SpeechText) -> SpeechTiming {
            SpeechTiming(
                text: text.posted, frameCount: 12_345, sampleRate: 22_050,
                words: [WordBoundary(frame: 100, textRange: 0..<4)])
        }
        func fileName(_ text: SpeechText) -> String {
            PhraseKey.timing(of: text, voice: .standard, identity: identity).fileName
        }
        // Entry files as another process leaves them.
        let other = PhraseCache(base: synthesizer, identity: identity, folder: elsewhere, warn: { _ in })
        for text in texts.prefix(2) { other.store(timing(text), of: text, voice: .standard) }
        #expect(Self.entryFiles(in: elsewhere).count == 2)
        func copyIn(_ text: SpeechText) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: elsewhere + "/" + fileName(text), toPath: folder + "/" + fileName(text))
        }

        Self.newProcess(folder)
        try copyIn(texts[0])
        let reader = PhraseCache(
            base: synthesizer, identity: identity, folder: folder, writesInBackground: true, warn: { _ in })
        #expect(reader.timing(of: texts[0], voice: .standard, sampleRate: 22_050)?.frameCount == 12_345)
        try copyIn(texts[1])
        #expect(reader.timing(of: texts[1], voice: .standard, sampleRate: 22_050) == nil, "written after the listing")
        let writer = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        writer.store(timing(texts[2]), of: texts[2], voice: .standard)
        #expect(reader.timing(of: texts[2], voice: .standard, sampleRate: 22_050)?.frameCount == 12_345)
        #expect(reader.statistics.hits == 2 && reader.statistics.damaged == 0)

        Self.newProcess(folder)
        let later = PhraseCache(
            base: synthesizer, identity: identity, folder: folder, writesInBackground: true, warn: { _ in })
        #expect(later.timing(of: texts[1], voice: .standard, sampleRate: 22_050)?.frameCount == 12_345)
    }

    @Test func aRunsTimingsGoIntoOnePackThatALaterReaderFinds() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (writer, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let texts = (1...50).map { SpeechText(verbatim: "Item \($0) of 50") }
        for (index, text) in texts.enumerated() {
            let timing = SpeechTiming(
                text: text.posted, frameCount: 10_000 + index, sampleRate: 22_050,
                words: [WordBoundary(frame: 200, textRange: 0..<4)])
            writer.store(timing, of: text, voice: .standard)
        }
        PhraseCache.finishWrites()
        #expect(Self.entryFiles(in: folder).isEmpty, "no file per timing")
        // One pack, or two if another test's end of writes (same process) came in between.
        #expect((1...2).contains(Self.packs(in: folder).count), "\(Self.packs(in: folder))")
        Self.newProcess(folder)
        let reader = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        let frames = texts.map { reader.timing(of: $0, voice: .standard, sampleRate: 22_050)?.frameCount }
        #expect(frames == (0..<50).map { 10_000 + $0 })
        #expect(reader.statistics.hits == 50 && reader.statistics.damaged == 0)
        #expect(PhraseCache.Folder(path: folder).usage().files == 50)
    }

    @Test(arguments: [false, true])
    func theNewerPackOfANameWins(newerFirstWritten: Bool) throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        let stamps =
            newerFirstWritten
            ? ["00000000000000000002", "00000000000000000001"]
            : [
                "00000000000000000001", "00000000000000000002",
            ]
        try store.writePack([(Self.name(1), Data("first".utf8))], stamp: stamps[0])
        try store.writePack([(Self.name(1), Data("second".utf8))], stamp: stamps[1])
        Self.newProcess(folder)
        let read = store.read(Self.name(1)).map { String(decoding: $0, as: UTF8.self) }
        #expect(read == (newerFirstWritten ? "first" : "second"), "the pack named later was written later")
    }

    @Test func manyPacksAreMergedIntoOneHoldingEveryEntry() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        for number in 1...10 {
            try store.writePack([(Self.name(number), Data("entry \(number)".utf8))], stamp: nil)
        }
        #expect(Self.packs(in: folder).count == 10)
        Self.newProcess(folder)
        #expect(store.read(Self.name(3)) == Data("entry 3".utf8))
        PhraseStore.finishWrites()
        #expect(Self.packs(in: folder).count == 1, "\(Self.packs(in: folder))")
        Self.newProcess(folder)
        for number in 1...10 { #expect(store.read(Self.name(number)) == Data("entry \(number)".utf8)) }
    }

    @Test func aPackCutShortKeepsItsWholeEntriesAndTheAuditNamesIt() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        let file = try store.writePack(
            (1...3).map { (Self.name($0), Data(repeating: UInt8($0), count: 100)) }, stamp: nil)
        let path = folder + "/packs/" + file
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(PhraseStore.unpack(bytes).whole)
        try bytes.dropLast(10).write(to: URL(fileURLWithPath: path))
        Self.newProcess(folder)
        #expect(store.read(Self.name(1)) == Data(repeating: 1, count: 100))
        #expect(store.read(Self.name(2)) == Data(repeating: 2, count: 100))
        #expect(store.read(Self.name(3)) == nil, "the entry cut short is a miss")
        #expect(PhraseCache.Folder(path: folder).damagedEntries() == ["packs/" + file])
        try Data("not a pack".utf8).write(to: URL(fileURLWithPath: path))
        #expect(PhraseStore.unpack(Data("not a pack".utf8)).entries.isEmpty)
    }

    @Test func entryNamesAreThirtyTwoLowerCaseHexDigitsAndTheExtension() {
        let hex = String(repeating: "0123456789abcdef", count: 2)
        #expect(PhraseStore.isEntryName(hex + ".phrase"))
        for bad in [
            hex.uppercased() + ".phrase", String(hex.dropLast()) + ".phrase", hex + "0.phrase", hex + ".phrasex",
            hex + ".timing", String(hex.dropLast()) + "g.phrase", String(hex.dropLast()) + "\u{FF10}.phrase", "",
            ".phrase", hex,
        ] {
            #expect(!PhraseStore.isEntryName(bad), "\(bad)")
        }
    }

    @Test func aPackLineThatIsNotANameAndALengthEndsTheReading() {
        let name = Self.name(1)
        let good = Data("\(name) 3\nabc".utf8)
        for line in ["\(name) 3", "\(name) +3", "\(name)  3", "\(name) 3x", "\(name.uppercased()) 3", "\(name)3"] {
            var bytes = PhraseStore.pack([])
            bytes.append(good)
            bytes.append(Data((line + "\nxyz").utf8))
            let unpacked = PhraseStore.unpack(bytes)
            let whole = line == "\(name) 3"
            #expect(unpacked.whole == whole, "\(line)")
            #expect(unpacked.entries.count == (whole ? 2 : 1), "\(line)")
            #expect(unpacked.entries.first.map { $0.name == name && $0.data == Data("abc".utf8) } == true)
        }
    }

    @Test func clearRemovesPacksAndCountsTheirEntries() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: 1 << 30)
        try store.writePack((1...3).map { (Self.name($0), Data("x".utf8)) }, stamp: nil)
        try store.write(Data("a file".utf8), as: Self.name(9))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/packs/notes.txt"))
        #expect(PhraseCache.Folder(path: folder).usage().files == 4)
        let removed = PhraseCache.Folder(path: folder).clear()
        #expect(removed.files == 4)
        #expect(Self.packs(in: folder).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder + "/packs/notes.txt"), "not the cache's: kept")
        #expect(store.read(Self.name(1)) == nil, "a cleared entry is not remembered")
    }

    /// Packs count toward the bound and the least recently used goes first, timing and audio packs alike (an audio
    /// pack's header and index make it larger, hence its larger bound here).
    @Test(arguments: [false, true])
    func packsCountTowardTheBoundAndTheLeastRecentlyUsedGoesFirst(audio: Bool) throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PhraseStore(folder: folder, limit: audio ? 2_800 : 2_500)
        let write = { (number: Int) throws -> String in
            let entry = AudioPackTests.entry(number, bytes: 1_000)
            return audio ? try store.writeAudioPack([entry], stamp: nil) : try store.writePack([entry], stamp: nil)
        }
        let first = try write(1)
        let second = try write(2)
        Self.newProcess(folder)
        #expect(store.read(Self.name(1)) != nil)
        store.touch(Self.name(1))  // the first pack is now the most recently used
        let third = try write(3)
        let left = audio ? AudioPackTests.audioPacks(in: folder) : Self.packs(in: folder)
        #expect(left.contains(first) && left.contains(third), "\(left)")
        #expect(!left.contains(second), "the least recently used pack is evicted")
    }

    /// A phrase first cut short (a small entry) and later synthesized whole (a large one) in one run must not leave
    /// the short one hiding the whole one from every later run.
    @Test func aPhraseCutShortThenSynthesizedWholeIsAnsweredWholeByTheNextRun() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (first, synthesizer, identity) = try PhraseCacheTests.backgroundCache(in: folder)
        let text = "Your order is on the way and arrives in twelve minutes."
        let cut = try first.synthesize(text, voice: .standard, frameLimit: 2_000)
        let whole = try first.synthesize(text, voice: .standard, frameLimit: nil)
        PhraseCache.finishWrites()
        #expect(cut.samples.count == 2_000 && whole.samples.count > 20_000)
        Self.newProcess(folder)
        let next = PhraseCache(base: synthesizer, identity: identity, folder: folder, warn: { _ in })
        let again = try next.synthesize(text, voice: .standard, frameLimit: nil)
        #expect(next.statistics.syntheses == 0 && next.statistics.hits == 1, "\(next.statistics)")
        let same = again.samples == whole.samples  // compared outside #expect, which would diff the samples
        #expect(same)
    }

    /// A background cache queues timings; `check --watch` hands them to the writer after each run, and a long run
    /// writes them once the first has waited ``PhraseStore/packFlushAge``, so stopping the process loses little.
    @Test func queuedTimingsReachTheFolderAfterARunOrOnceTheyHaveWaited() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try PhraseCacheTests.backgroundCache(in: folder).cache
        // Tests in this process may end their writes meanwhile (writing every queued pack): only what must be on
        // disk is checked.
        func store(_ text: String) -> String {
            let spoken = SpeechText(verbatim: text)
            cache.store(
                SpeechTiming(text: text, frameCount: 5_000, sampleRate: 22_050, words: []), of: spoken, voice: .standard
            )
            return PhraseKey.timing(of: spoken, voice: .standard, identity: cache.identity).fileName
        }
        let first = store("First of the run")
        PhraseCache.writeQueuedPacks()
        PhraseStore.writer.wait()
        #expect(Self.packedNames(in: folder).contains(first), "handed over after the run")
        // The writer is held meanwhile: another test's end of writes could otherwise take "second" alone, and
        // "third" would start a pack of its own.
        let release = PhraseStore.holdWriter()
        let second = store("Second, queued now")
        Thread.sleep(forTimeInterval: PhraseStore.packFlushAge + 0.1)
        let third = store("Third, after the first has waited")
        release()
        PhraseStore.writer.wait()
        #expect(Self.packedNames(in: folder).isSuperset(of: [second, third]), "written without an end of run")
    }
}
