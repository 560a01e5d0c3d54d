import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

/// A phrase cache that writes its entries on the writer thread (as `earshot` does): the run goes on at once, a
/// queued entry answers like a written one, and a failed write is reported once, when it fails.
@Suite(.serialized) struct PhraseCacheBackgroundTests {
    static let phrases = ["Results updated", "Order 1042 is ready.", "Pay now, button"]

    static func cache(in folder: String) throws -> (PhraseCache, Warnings) {
        let synthesizer = try SpeechFixtures.synthesizer()
        let warnings = Warnings()
        let cache = PhraseCache(
            base: synthesizer, identity: PhraseCacheTests.identity(synthesizer), folder: folder,
            writesInBackground: true, warn: { warnings.add($0) })
        return (cache, warnings)
    }

    /// The entries on disk: phrase files, and the entries of the audio packs.
    static func entries(in folder: String) -> [String] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(
            PhraseStore.isEntryName)
        return files + AudioPackTests.audioPackedNames(in: folder)
    }

    @Test func queuedEntriesAnswerAtOnceAndReachTheFolderWhenWritesFinish() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, warnings) = try Self.cache(in: folder)
        let release = PhraseStore.holdWriter()
        let first = try Self.phrases.map { try cache.synthesize($0, voice: .standard) }
        let queuedOnly = Self.entries(in: folder).isEmpty
        let again = try Self.phrases.map { try cache.synthesize($0, voice: .standard) }
        release()
        PhraseCache.finishWrites()
        #expect(queuedOnly, "entries were written while the writer was held")
        #expect(cache.statistics.syntheses == 3 && cache.statistics.hits == 3 && cache.statistics.stores == 3)
        #expect(Self.entries(in: folder).count == 3)
        let (reader, _) = try PhraseCacheTests.cache(in: folder)
        let read = try Self.phrases.map { try reader.synthesize($0, voice: .standard) }
        #expect(reader.statistics.syntheses == 0 && reader.statistics.hits == 3)
        let same =
            zip(first, again).allSatisfy { $0.samples == $1.samples && $0.words == $1.words }
            && zip(first, read).allSatisfy { $0.samples == $1.samples && $0.words == $1.words }
        #expect(same)
        #expect(warnings.messages.isEmpty)
    }

    /// Makes `folder` a file: every later write into it fails with "Not a directory".
    static func spoil(_ folder: String) throws {
        try FileManager.default.removeItem(atPath: folder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder))
    }

    @Test func aWriteThatFailsOnTheWriterThreadWarnsOnceAndStopsTheWriting() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (cache, warnings) = try Self.cache(in: folder)
        _ = try cache.synthesize(Self.phrases[0], voice: .standard)
        PhraseCache.finishWrites()
        try Self.spoil(folder)
        _ = try cache.synthesize(Self.phrases[1], voice: .standard)
        PhraseCache.finishWrites()
        #expect(warnings.messages.count == 1, "told when the writer failed: \(warnings.messages)")
        #expect(warnings.messages.first?.contains("(Not a directory)") == true, "\(warnings.messages)")
        #expect(warnings.messages.first?.contains(folder) == true, "\(warnings.messages)")
        let stored = cache.statistics.stores
        let third = try cache.synthesize(Self.phrases[2], voice: .standard)
        _ = try cache.synthesize("One more phrase.", voice: .standard)
        PhraseCache.finishWrites()
        #expect(warnings.messages.count == 1, "\(warnings.messages)")
        #expect(cache.statistics.syntheses == 4 && cache.statistics.stores == stored && third.frameCount > 0)
    }

    /// A run's last writes are still queued when its cache is gone (`earshot` waits for them as it exits): their
    /// failure is told all the same, though no write comes after it.
    @Test func aFailureAmongTheLastWritesIsToldAfterTheCacheIsGone() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let warnings: Warnings
        do {
            let (cache, told) = try Self.cache(in: folder)
            warnings = told
            _ = try cache.synthesize(Self.phrases[0], voice: .standard)
            PhraseCache.finishWrites()
            try Self.spoil(folder)
            _ = try cache.synthesize(Self.phrases[1], voice: .standard)
        }
        #expect(warnings.messages.isEmpty)
        PhraseCache.finishWrites()
        #expect(warnings.messages.count == 1, "\(warnings.messages)")
        #expect(warnings.messages.first?.contains("(Not a directory)") == true, "\(warnings.messages)")
    }
}
