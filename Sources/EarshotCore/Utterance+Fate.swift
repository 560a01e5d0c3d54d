/// What a listener got of an utterance, in the words checks use: posted, heard, heard in full, cut, dropped,
/// lost.
///
/// Every utterance was *posted* (requested). It was *heard* when some of its words reached the listener,
/// *heard in full* when it was spoken to its end, *cut* when something interrupted it after it started,
/// *dropped* when it never started, and *lost* when it was posted and nothing of it was heard (dropped, or
/// cut before its first word). Checks, evidence and findings read these properties rather than the outcome,
/// so what "heard" means is decided in one place.
public enum UtteranceFate: Hashable, Sendable {
    /// Not resolved yet (only seen mid-run).
    case pending
    /// Spoken to the end.
    case heardInFull
    /// Cut after some of it was heard.
    case cut(heard: String, by: Interruption)
    /// Cut before its first word: started, but nothing of it was heard.
    case cutBeforeFirstWord(by: Interruption)
    /// Never started.
    case dropped(DropReason)
    /// Spoken, but it has no words (an empty announcement): nothing was heard.
    case withoutWords

    /// How the fate reads in evidence: "heard in full", "cut by … after \"Added\"", "nothing heard: dropped
    /// (focus moved)".
    public var description: String {
        switch self {
        case .pending: return "not resolved"
        case .heardInFull: return "heard in full"
        case .cut(let heard, let by): return "cut by \(by.description) after \"\(heard)\""
        case .cutBeforeFirstWord(let by): return "nothing heard: cut by \(by.description) before its first word"
        case .dropped(let reason): return "nothing heard: dropped (\(reason.rawValue))"
        case .withoutWords: return "nothing heard: it has no words"
        }
    }
}

extension UtteranceRecord {
    /// What the listener got of it.
    public var fate: UtteranceFate {
        switch outcome {
        case .pending, .speaking: return .pending
        case .spoken: return heardAnything ? .heardInFull : .withoutWords
        case .interrupted(_, _, let by):
            return heardAnything ? .cut(heard: heardText, by: by) : .cutBeforeFirstWord(by: by)
        case .dropped(_, let reason, _): return .dropped(reason)
        }
    }

    /// True when some of its words reached the listener: spoken to the end, or cut after its first word
    /// began. Speech with no words (an empty announcement) is never heard.
    public var heardAnything: Bool {
        switch outcome {
        case .spoken: return utterance.text.contains { !$0.isWhitespace }
        case .interrupted: return heardFrames > 0 && heardText.contains { !$0.isWhitespace }
        case .pending, .speaking, .dropped: return false
        }
    }

    /// True when it was spoken to its end (and has words to hear).
    public var heardInFull: Bool { wasSpoken && heardAnything }

    /// True when it was posted and nothing of it was heard: dropped, cut before its first word, or without
    /// words at all.
    public var wasLost: Bool {
        switch outcome {
        case .pending, .speaking: return false
        case .dropped, .interrupted, .spoken: return !heardAnything
        }
    }

    /// Why it never started, when it was dropped.
    public var dropReason: DropReason? {
        if case .dropped(_, let reason, _) = outcome { return reason }
        return nil
    }

    /// What interrupted it, when it was cut.
    public var interruption: Interruption? {
        if case .interrupted(_, _, let by) = outcome { return by }
        return nil
    }

    /// The instant its fate was sealed: when it stopped (end or cut), or when it was dropped.
    public var settledAt: Instant? {
        if case .dropped(let at, _, _) = outcome { return at }
        return stop
    }
}
