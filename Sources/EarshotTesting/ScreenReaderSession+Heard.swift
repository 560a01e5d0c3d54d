import EarshotCore

extension ScreenReaderSession {
    // MARK: What was heard

    /// What the listener actually heard, in order: each utterance that sounded, a cut one as the text up to the
    /// word the cut landed in.
    ///
    /// The vocabulary of screen-reader test tools (Guidepup's `spokenPhraseLog`). Utterances cut before their
    /// first word, dropped or still queued are not in it.
    public var spokenPhraseLog: [String] {
        simulation.timeline.heardUtterances.map(\.heardText).filter { !$0.isEmpty }
    }

    /// The last phrase heard, if any (see ``spokenPhraseLog``).
    public var lastSpokenPhrase: String? { spokenPhraseLog.last }

    /// Every utterance VoiceOver was asked to say, in the order asked, with its outcome — dropped ones too.
    public var utterances: [SpokenUtterance] {
        let timeline = simulation.timeline
        return timeline.utterances.map { SpokenUtterance($0, in: timeline) }
    }

    /// The utterances whose whole text is exactly `text`, in the order asked.
    public func utterances(matching text: String) -> [SpokenUtterance] {
        let timeline = simulation.timeline
        return timeline.utterances.filter { $0.utterance.text == text }.map { SpokenUtterance($0, in: timeline) }
    }

    /// The utterances whose text contains a match of `regex` (anchor it, `/^\d+ results$/`, to match whole
    /// texts), in the order asked.
    public func utterances<Output>(matching regex: Regex<Output>) -> [SpokenUtterance] {
        let timeline = simulation.timeline
        return timeline.utterances.filter { $0.utterance.text.contains(regex) }.map {
            SpokenUtterance($0, in: timeline)
        }
    }

    /// The utterances of one kind (`.typingEcho`, `.poll`, `.focusRead` …), in the order asked.
    public func utterances(ofKind kind: UtteranceKind) -> [SpokenUtterance] {
        let timeline = simulation.timeline
        return timeline.utterances.filter { $0.utterance.kind == kind }.map { SpokenUtterance($0, in: timeline) }
    }

    /// The app's announcements, in the order posted, whatever became of them.
    public var announcements: [SpokenUtterance] { utterances(ofKind: .announcement) }

    /// Every `announcementDidFinishNotification` so far, in order.
    public var announcementCompletions: [AnnouncementCompletion] {
        simulation.timeline.events.compactMap { event in
            guard case .announcementDidFinish(_, let text, let success) = event.kind else { return nil }
            return AnnouncementCompletion(text: text, wasSuccessful: success, at: Duration(event.at))
        }
    }

    /// True when no speech sounded at any moment from `start` up to `end` (an utterance that stops exactly at
    /// `start` or starts exactly at `end` does not break the silence). Earcons and app sounds are not speech.
    public func silence(between start: Duration, and end: Duration) -> Bool {
        let from = Instant(start)
        let to = Instant(end)
        return !simulation.timeline.utterances.contains { record in
            guard let began = record.start else { return false }
            // Still speaking: its whole length (synthesized in full now, as only a question like this needs it).
            let length =
                record.timing?.isComplete == true
                ? record.timing?.duration
                : (try? simulation.speech.timing(for: record.utterance.text, voice: record.voice))?.duration
            let stopped = record.stop ?? began + (length ?? .zero)
            return began < to && from < stopped
        }
    }

    /// When each key was typed, in order.
    public var keystrokes: [Duration] { simulation.timeline.keystrokes.map(Duration.init) }

    // MARK: The whole record

    /// The human transcript of the session: every action, focus move and utterance in time order, with cut speech
    /// visibly cut (`Results—`, then `✂ announcement "Results—" cut by typingEcho "a"`). Print it when a test fails.
    public var transcript: String { simulation.timeline.transcript() }

    /// The session's timeline as JSON Lines, one object per utterance or event, for tools.
    public var jsonLines: String { simulation.timeline.jsonLines() }

    /// Everything that happened, as the engine recorded it.
    public var timeline: Timeline { simulation.timeline }
}
