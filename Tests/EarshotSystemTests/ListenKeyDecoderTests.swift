import EarshotSystem
import Testing

/// Raw terminal bytes to the keys `earshot listen --interactive` acts on.
@Suite struct ListenKeyDecoderTests {
    @Test(
        arguments: [
            ([0x1B, 0x5B, 0x43], [TerminalKey.right]),
            ([0x1B, 0x5B, 0x44], [.left]),
            ([0x1B, 0x4F, 0x43], [.right]),  // application cursor mode (SS3)
            ([0x1B, 0x5B, 0x41], [.ignored]),  // ↑
            ([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x43], [.right]),  // Ctrl-→: parameters are skipped, the arrow counts
            ([0x0D], [.enter]),
            ([0x09], [.tab]),
            ([0x03], [.interrupt]),
            ([0x7F], [.backspace]),
            ([0x6A, 0x61], [.character("j"), .character("a")]),
            ([0xC3, 0xA9], [.character("é")]),
            ([0x1B, 0x6A], [.escape, .character("j")]),
        ] as [([UInt8], [TerminalKey])])
    func bytesDecodeToKeys(bytes: [UInt8], keys: [TerminalKey]) {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed(bytes) == keys)
        #expect(!decoder.hasPending)
    }

    @Test func aSequenceSplitAcrossReadsIsKeptUntilComplete() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.feed([0x5B]).isEmpty)
        #expect(decoder.feed([0x44]) == [.left])
    }

    @Test func aLoneEscapeIsTheEscKeyOnceTheTerminalIsQuiet() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
        #expect(decoder.flush().isEmpty)
    }
}
