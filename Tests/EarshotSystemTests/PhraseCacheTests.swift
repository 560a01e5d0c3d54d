import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

/// The persistent phrase cache over the real espeak-ng: what it answers, what it keys on, how it survives damage.
@Suite struct PhraseCacheTests {
    static let text = "Your order has shipped, arriving Tuesday."

    static func identity(_ synthesizer: EspeakSynthesizer) -> PhraseCache.Identity {
        PhraseCache.Identity(
            engineVersion: synthesizer.engineVersion, normalizerVersion: TextNormalizer.version,
            variantsFingerprint: synthesizer.variantsFingerprint, sampleRate: synthesizer.sampleRate)
    }

    /// A cache in a fresh folder, with the warnings it printed.
    static func cache(
        in folder: String, identity: PhraseCache.Identity? = nil, limit: Int = PhraseCache.defaultLimit
    ) throws -> (PhraseCache, Warnings) {
        let synthesizer = try SpeechFixtures.synthesizer()
        let warnings = Warnings()
        let cache = PhraseCache(
            base: synthesizer, identity: identity ?? Self.identity(synthesizer), folder: folder, limit: limit,
            warn: { warnings.add($0) })
        return (cache, warnings)
    }

    static func folder() -> String { NSTemporaryDirectory() + "earshot-phrase-cache-" + UUID().uuidString }

    /// A cache over `folder` that writes in the background (into packs), with its synthesizer and identity.
    static func backgroundCache(
        in folder: String
    ) throws -> (cache: PhraseCache, synthesizer: EspeakSynthesizer, identity: PhraseCache.Identity) {
        let synthesizer = try SpeechFixtures.synthesizer()
        let identity = Self.identity(synthesizer)
        let cache = PhraseCache(
            base: synthesizer, identity: identity, folder: folder, writesInBackground: true, warn: { _ in })
        return (cache, synthesizer, identity)
    }

    @Test func aSecondCacheOverTheSameFolderAnswersWithoutSynthesizingAndIdentically() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cold, _) = try Self.cache(in: folder)
        let first = try cold.synthesize(Self.text, voice: .standard)
        let (warm, _) = try Self.cache(in: folder)
        let second = try warm.synthesize(Self.text, voice: .standard)
        #expect(cold.statistics.syntheses == 1 && cold.statistics.stores == 1)
        #expect(warm.statistics.syntheses == 0 && warm.statistics.hits == 1)
        let same = first.samples == second.samples && first.words == second.words
        #expect(same && first.stoppedEarly == second.stoppedEarly)
    }

    /// What changes the key: each case changes one component and must miss; `same` changes nothing and hits.
    enum Change: String, CaseIterable, Sendable {
        case same, rate, pitch, variant, volume, wordGap, engineVersion, normalizerVersion, variantsFingerprint, text
    }

    @Test(arguments: Change.allCases)
    func onlyTheSameTextVoiceAndEngineHit(change: Change) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let synthesizer = try SpeechFixtures.synthesizer()
        let (first, _) = try Self.cache(in: folder)
        _ = try first.synthesize(Self.text, voice: .standard)
        var identity = Self.identity(synthesizer)
        var voice = VoiceProfile.standard
        var text = Self.text
        switch change {
        case .same: voice.name = "renamed"  // the profile's name changes no audio
        case .rate: voice.rate += 10
        case .pitch: voice.pitch += 10
        case .variant: voice.variant = "f3"
        case .volume: voice.volume -= 10
        case .wordGap: voice.wordGap += 1
        case .engineVersion: identity.engineVersion += ".1"
        case .normalizerVersion: identity.normalizerVersion += 1
        case .variantsFingerprint: identity.variantsFingerprint += "x"
        case .text: text += " "
        }
        let (second, _) = try Self.cache(in: folder, identity: identity)
        _ = try second.synthesize(text, voice: voice)
        #expect(second.statistics.hits == (change == .same ? 1 : 0), "\(change)")
        #expect(second.statistics.syntheses == (change == .same ? 0 : 1), "\(change)")
    }

    @Test(arguments: [0, 1, 1_000, 9_000, 20_000, 1_000_000])
    func aWholeEntryAnswersAnyLimitExactlyAsTheSynthesizerWould(limit: Int) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, _) = try Self.cache(in: folder)
        _ = try cache.synthesize(Self.text, voice: .standard)
        let answer = try cache.synthesize(Self.text, voice: .standard, frameLimit: limit)
        let direct = try SpeechFixtures.synthesizer().synthesize(Self.text, voice: .standard, frameLimit: limit)
        #expect(cache.statistics.hits == 1 && cache.statistics.syntheses == 1)
        let same = answer.samples == direct.samples
        #expect(same, "\(answer.frameCount) frames from the cache, \(direct.frameCount) synthesized")
        #expect(answer.words == direct.words)
        #expect(answer.stoppedEarly == direct.stoppedEarly)
    }

    @Test func aPrefixEntryAnswersShorterLimitsAndALongerSynthesisReplacesIt() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, _) = try Self.cache(in: folder)
        let prefix = try cache.synthesize(Self.text, voice: .standard, frameLimit: 10_000)
        #expect(prefix.stoppedEarly && prefix.frameCount == 10_000)
        let shorter = try cache.synthesize(Self.text, voice: .standard, frameLimit: 4_000)
        #expect(cache.statistics.hits == 1 && shorter.frameCount == 4_000 && shorter.stoppedEarly)
        let whole = try cache.synthesize(Self.text, voice: .standard)
        #expect(cache.statistics.syntheses == 2 && !whole.stoppedEarly)
        #expect(cache.statistics.stores == 2, "the whole phrase replaced the prefix")
        let (later, _) = try Self.cache(in: folder)
        let again = try later.synthesize(Self.text, voice: .standard)
        #expect(later.statistics.hits == 1 && again.frameCount == whole.frameCount)
    }

    enum Damage: String, CaseIterable, Sendable { case flippedSample, truncated, empty, otherKey }

    @Test(arguments: Damage.allCases)
    func aDamagedEntryIsAMissAndIsReplaced(damage: Damage) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cold, _) = try Self.cache(in: folder)
        let original = try cold.synthesize(Self.text, voice: .standard)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        let path = folder + "/" + name
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch damage {
        case .flippedSample: bytes[bytes.count - 100] ^= 0x40
        case .truncated: bytes = bytes.prefix(bytes.count / 2)
        case .empty: bytes = Data()
        case .otherKey:
            // A well-formed entry for another text, under this text's name (a file-name collision).
            let other = try SpeechFixtures.synthesizer().synthesize("Something else.", voice: .standard)
            let key = PhraseKey(text: "Something else.", voice: .standard, identity: cold.identity).canonical
            bytes = PhraseEntry(key: key, speech: other).encoded()
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        let (warm, _) = try Self.cache(in: folder)
        let answer = try warm.synthesize(Self.text, voice: .standard)
        #expect(warm.statistics.hits == 0 && warm.statistics.damaged == 1 && warm.statistics.stores == 1)
        let same = answer.samples == original.samples && answer.words == original.words
        #expect(same)
        let (after, _) = try Self.cache(in: folder)
        _ = try after.synthesize(Self.text, voice: .standard)
        #expect(after.statistics.hits == 1, "the entry was replaced by a whole one")
    }

    @Test func anUnwritableFolderWarnsOnceAndAnswersTheSame() throws {
        let blocker = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
        let (cache, warnings) = try Self.cache(in: blocker + "/phrases")
        let first = try cache.synthesize(Self.text, voice: .standard)
        let second = try cache.synthesize("Another phrase.", voice: .standard)
        let direct = try SpeechFixtures.synthesizer().synthesize(Self.text, voice: .standard)
        #expect(warnings.messages.count == 1)
        #expect(warnings.messages.first?.contains(blocker + "/phrases") == true)
        #expect(warnings.messages.first?.contains("Not a directory") == true, "\(warnings.messages)")
        #expect(cache.statistics.stores == 0 && cache.statistics.syntheses == 2)
        let same = first.samples == direct.samples
        #expect(same && second.frameCount > 0)
    }

    @Test func aWritableFolderGivesNoWarning() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, warnings) = try Self.cache(in: folder)
        _ = try cache.synthesize(Self.text, voice: .standard)
        #expect(warnings.messages.isEmpty && cache.statistics.stores == 1)
    }

    /// A library user's relative folder is made under the current folder (it was once made at the root).
    @Test func aRelativeFolderIsMadeUnderTheCurrentOne() throws {
        let name = "earshot-relative-phrases-" + UUID().uuidString
        let here = FileManager.default.currentDirectoryPath + "/" + name
        defer {
            try? FileManager.default.removeItem(atPath: here)
            try? FileManager.default.removeItem(atPath: "/" + name)
        }
        let (cache, warnings) = try Self.cache(in: name + "/phrases")
        _ = try cache.synthesize(Self.text, voice: .standard)
        #expect(warnings.messages.isEmpty, "\(warnings.messages)")
        #expect(cache.statistics.stores == 1)
        #expect(PhraseCache.Folder(path: here + "/phrases").usage().files == 1)
    }

    @Test func evictionKeepsTheFolderUnderItsBoundAndDropsTheLeastRecentlyUsedFirst() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let phrases = (1...6).map { "Phrase number \($0) for the cache." }
        // Measure one entry, then bound the folder to about four of them.
        let (probe, _) = try Self.cache(in: folder)
        _ = try probe.synthesize(phrases[0], voice: .standard)
        let entrySize = PhraseCache.Folder(path: folder).usage().bytes
        let limit = entrySize * 4 + entrySize / 2
        let (cache, _) = try Self.cache(in: folder, limit: limit)
        for phrase in phrases.prefix(4) { _ = try cache.synthesize(phrase, voice: .standard) }
        // Phrase 1 is used again: phrase 2 is now the least recently used.
        _ = try cache.synthesize(phrases[0], voice: .standard)
        #expect(cache.statistics.hits == 2)
        _ = try cache.synthesize(phrases[4], voice: .standard)
        _ = try cache.synthesize(phrases[5], voice: .standard)
        let usage = PhraseCache.Folder(path: folder).usage()
        #expect(usage.bytes <= limit, "\(usage.bytes) bytes over the bound of \(limit)")
        let (check, _) = try Self.cache(in: folder, limit: limit)
        for phrase in [phrases[0], phrases[5]] { _ = try check.synthesize(phrase, voice: .standard) }
        #expect(check.statistics.hits == 2, "the most recently used phrases stayed")
        let (evicted, _) = try Self.cache(in: folder, limit: limit * 10)
        _ = try evicted.synthesize(phrases[1], voice: .standard)
        #expect(evicted.statistics.hits == 0, "the least recently used phrase went first")
    }

    @Test func clearRemovesEntriesAndNothingElse() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, _) = try Self.cache(in: folder)
        _ = try cache.synthesize(Self.text, voice: .standard)
        _ = try cache.synthesize("Another phrase.", voice: .standard)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/ABCDEF.phrase"))
        let removed = PhraseCache.Folder(path: folder).clear()
        #expect(removed.files == 2 && removed.bytes > 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == ["ABCDEF.phrase", "notes.txt"])
    }
}

/// Warnings collected from a cache.
final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    var messages: [String] { lock.withLock { collected } }

    func add(_ message: String) { lock.withLock { collected.append(message) } }
}

@Suite struct PhraseCacheFolderTests {
    @Test func anAuditNamesTruncatedEntriesAndPassesWholeOnes() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, _) = try PhraseCacheTests.cache(in: folder)
        _ = try cache.synthesize(PhraseCacheTests.text, voice: .standard)
        _ = try cache.synthesize("Another phrase.", voice: .standard)
        let audit = PhraseCache.Folder(path: folder)
        #expect(audit.damagedEntries().isEmpty)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        try bytes.prefix(bytes.count - 1).write(to: URL(fileURLWithPath: folder + "/" + name))
        #expect(audit.damagedEntries() == [name])
    }
}
