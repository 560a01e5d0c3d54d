import Foundation

extension Timeline {
    /// The timeline as JSON Lines for tools: one object per utterance, then one per event, each with a `type`.
    /// Keys are sorted so the same run always gives the same bytes.
    public func jsonLines() -> String {
        var rows: [(at: Int64, order: Int, object: [String: Any])] = []
        for record in utterances {
            var object: [String: Any] = [
                "type": "utterance", "id": record.utterance.id, "text": record.utterance.text,
                "kind": record.utterance.kind.rawValue, "priority": record.utterance.priority.rawValue,
                "cause": record.utterance.cause, "rule": record.rule, "voice": record.voice.name,
                "requested_ms": record.utterance.requestedAt.milliseconds,
            ]
            if let element = record.utterance.elementID { object["element"] = element }
            switch record.outcome {
            case .spoken(let start, let end):
                object["outcome"] = "spoken"
                object["start_ms"] = start.milliseconds
                object["end_ms"] = end.milliseconds
            case .interrupted(let start, let cut, let by):
                object["outcome"] = "interrupted"
                object["start_ms"] = start.milliseconds
                object["cut_ms"] = cut.milliseconds
                object["cut_by"] = by.description
                if let id = by.utterance { object["cut_by_id"] = id }
                if let point = record.cutPoint {
                    object["heard_text"] = point.heardText
                    object["heard_frames"] = point.heardFrames
                    object["last_full_word"] = point.lastFullWord ?? NSNull()
                    object["cut_word"] = point.cutWord ?? NSNull()
                    object["lost_words"] = point.lostWords
                }
            case .dropped(let at, let reason, let by):
                object["outcome"] = "dropped"
                object["dropped_ms"] = at.milliseconds
                object["reason"] = reason.rawValue
                if let by { object["dropped_by_id"] = by }
            case .speaking(let start):
                object["outcome"] = "speaking"
                object["start_ms"] = start.milliseconds
            case .pending:
                object["outcome"] = "pending"
            }
            rows.append((record.utterance.requestedAt.nanoseconds, rows.count, object))
        }
        for event in events {
            var object = Self.jsonObject(event.kind)
            object["at_ms"] = event.at.milliseconds
            rows.append((event.at.nanoseconds, rows.count, object))
        }
        rows.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        return rows.compactMap { row in
            guard let data = try? JSONSerialization.data(withJSONObject: row.object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return nil }
            return String(decoding: data, as: UTF8.self)
        }.joined(separator: "\n") + "\n"
    }

    static func jsonObject(_ kind: TimelineEventKind) -> [String: Any] {
        switch kind {
        case .user(let action):
            var object: [String: Any] = ["type": "user"]
            switch action {
            case .type(let character): object["action"] = "type"; object["text"] = String(character)
            case .swipeNext: object["action"] = "swipe next"
            case .swipePrevious: object["action"] = "swipe previous"
            case .focus(let id): object["action"] = "focus"; object["element"] = id
            case .activate(let id): object["action"] = "activate"; object["element"] = id ?? NSNull()
            }
            return object
        case .app(let text): return ["type": "app", "action": text]
        case .focus(let from, let to, let index, let cause):
            return ["type": "focus", "from": from ?? NSNull(), "to": to ?? NSNull(), "index": index ?? NSNull(), "cause": cause]
        case .earcon(let name, let duration): return ["type": "earcon", "name": name, "duration_ms": duration.milliseconds]
        case .sound(let name, let duration, let heard):
            return ["type": "sound", "name": name, "duration_ms": duration.milliseconds, "heard": heard]
        case .media(let track, let heard):
            return ["type": "media", "name": track.name, "duration_ms": track.duration.milliseconds, "heard": heard,
                    "captions": track.captions.count]
        case .caption(let text, let until): return ["type": "caption", "text": text, "until_ms": until.milliseconds]
        case .visibleText(let text): return ["type": "text", "text": text]
        case .announcementDidFinish(let id, let text, let success):
            return ["type": "announcementDidFinish", "utterance": id, "text": text, "wasSuccessful": success]
        case .scanHighlight(let id): return ["type": "scan", "element": id]
        case .focusLost(let id): return ["type": "focusLost", "element": id]
        }
    }
}
