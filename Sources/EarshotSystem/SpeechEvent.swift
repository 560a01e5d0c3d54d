import CEarshot

/// A point in synthesized audio that espeak-ng marked: a word, sentence or clause boundary.
public struct SpeechEvent: Hashable, Sendable {
    /// What kind of boundary this is.
    public enum Kind: Hashable, Sendable {
        /// A word starts.
        case word
        /// A sentence starts.
        case sentence
        /// A sentence or clause ends (after its pause).
        case end
    }

    /// The kind of boundary.
    public var kind: Kind
    /// The frame within the utterance where it happens.
    public var frame: Int
    /// Where it is in the text, in Unicode scalar offsets (0-based, half-open); empty for sentence and
    /// end events, which mark a position only.
    public var textRange: Range<Int>

    /// Creates an event.
    public init(kind: Kind, frame: Int, textRange: Range<Int>) {
        self.kind = kind
        self.frame = frame
        self.textRange = textRange
    }
}

/// Receives chunks from the C shim during one synthesis and converts its events.
final class ChunkSink {
    let scalarCount: Int
    let onChunk: (ArraySlice<Int16>, [SpeechEvent]) -> Bool

    init(scalarCount: Int, onChunk: @escaping (ArraySlice<Int16>, [SpeechEvent]) -> Bool) {
        self.scalarCount = scalarCount
        self.onChunk = onChunk
    }

    /// Converts espeak-ng's event: 1-based code point positions become 0-based scalar ranges; WORD
    /// events without a position or length (espeak-ng emits some for inserted pauses) are dropped.
    func convert(_ event: earshot_speech_event) -> SpeechEvent? {
        let start = min(max(Int(event.text_position) - 1, 0), scalarCount)
        switch Int(event.kind) {
        case EARSHOT_EVENT_WORD:
            guard event.text_position > 0, event.length > 0 else { return nil }
            let end = min(start + Int(event.length), scalarCount)
            return SpeechEvent(kind: .word, frame: Int(event.frame), textRange: start..<end)
        case EARSHOT_EVENT_SENTENCE:
            return SpeechEvent(kind: .sentence, frame: Int(event.frame), textRange: start..<start)
        case EARSHOT_EVENT_END:
            return SpeechEvent(kind: .end, frame: Int(event.frame), textRange: start..<start)
        default:
            return nil
        }
    }
}

/// The C callback: hands a chunk to the `ChunkSink` behind `context`. Returns 1 to stop synthesis.
let chunkCallback: earshot_speech_sink = { samples, count, events, eventCount, context in
    guard let context else { return 1 }
    let sink = Unmanaged<ChunkSink>.fromOpaque(context).takeUnretainedValue()
    var converted: [SpeechEvent] = []
    if let events {
        for index in 0..<Int(eventCount) {
            if let event = sink.convert(events[index]) { converted.append(event) }
        }
    }
    let chunk: ArraySlice<Int16> =
        if let samples, count > 0 { Array(UnsafeBufferPointer(start: samples, count: Int(count)))[...] } else { [] }
    return sink.onChunk(chunk, converted) ? 0 : 1
}
