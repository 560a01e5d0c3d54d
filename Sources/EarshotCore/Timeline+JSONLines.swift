extension Timeline {
    /// The timeline as JSON Lines for tools: one object per utterance, then one per event, each with a `type`,
    /// in time order. Keys are sorted so the same run always gives the same bytes.
    public func jsonLines() -> String {
        // In the run's one order (see `Timeline`): utterances where they were requested, events where they happened.
        var rows: [(at: Instant, sequence: Int, object: JSONObject)] = []
        rows.reserveCapacity(utterances.count + events.count)
        for record in utterances {
            rows.append((record.utterance.requestedAt, record.requestSequence, jsonObject(record)))
        }
        for event in events {
            var object = Self.jsonObject(event.kind)
            object["at_ms"] = .int(event.at.milliseconds)
            rows.append((event.at, event.sequence, object))
        }
        rows.sort { ($0.at, $0.sequence) < ($1.at, $1.sequence) }
        var output = ""
        output.reserveCapacity(rows.count * 160)
        for row in rows {
            row.object.write(to: &output)
            output.append("\n")
        }
        return output
    }

    func jsonObject(_ record: UtteranceRecord) -> JSONObject {
        var object: JSONObject = [
            "type": "utterance", "id": .int(Int64(record.utterance.id)), "text": .string(record.utterance.text),
            "kind": .string(record.utterance.kind.rawValue), "priority": .string(record.utterance.priority.rawValue),
            "cause": .string(record.utterance.cause), "rule": .string(record.rule), "voice": .string(record.voice.name),
            "requested_ms": .int(record.utterance.requestedAt.milliseconds),
        ]
        if let element = record.utterance.elementID { object["element"] = .string(element) }
        switch record.outcome {
        case .spoken(let start, let end):
            object["outcome"] = "spoken"
            object["start_ms"] = .int(start.milliseconds)
            object["end_ms"] = .int(end.milliseconds)
        case .interrupted(let start, let cut, let by):
            object["outcome"] = "interrupted"
            object["start_ms"] = .int(start.milliseconds)
            object["cut_ms"] = .int(cut.milliseconds)
            object["cut_by"] = .string(by.description)
            if let id = by.utterance {
                object["cut_by_id"] = .int(Int64(id))
                object["cut_by_never_heard"] = .bool(wasNeverHeard(id))
            }
            object["nothing_heard"] = .bool(record.wasCutBeforeHeard)
            if let point = record.cutPoint {
                object["heard_text"] = .string(point.heardText)
                object["heard_frames"] = .int(Int64(point.heardFrames))
                object["last_full_word"] = point.lastFullWord.map(JSONValue.string) ?? .null
                object["cut_word"] = point.cutWord.map(JSONValue.string) ?? .null
                object["lost_words"] = .strings(point.lostWords)
            }
        case .dropped(let at, let reason, let by):
            object["outcome"] = "dropped"
            object["dropped_ms"] = .int(at.milliseconds)
            object["reason"] = .string(reason.rawValue)
            if let by { object["dropped_by_id"] = .int(Int64(by)) }
        case .speaking(let start):
            object["outcome"] = "speaking"
            object["start_ms"] = .int(start.milliseconds)
        case .pending:
            object["outcome"] = "pending"
        }
        return object
    }

    static func jsonObject(_ kind: TimelineEventKind) -> JSONObject {
        switch kind {
        case .user(let action):
            var object: JSONObject = ["type": "user"]
            switch action {
            case .type(let character):
                object["action"] = "type"
                object["text"] = .string(String(character))
            case .swipeNext: object["action"] = "swipe next"
            case .swipePrevious: object["action"] = "swipe previous"
            case .submit: object["action"] = "submit"
            case .adjust(let direction): object["action"] = .string("swipe \(direction.rawValue)")
            case .focus(let id):
                object["action"] = "focus"
                object["element"] = .string(id)
            case .activate(let id):
                object["action"] = "activate"
                object["element"] = id.map(JSONValue.string) ?? .null
            }
            return object
        case .app(let text): return ["type": "app", "action": .string(text)]
        case .load(let name, let phase): return ["type": "app", "action": .string("load \(name) \(phase.rawValue)")]
        case .focus(let from, let to, let index, let cause):
            return [
                "type": "focus", "from": from.map(JSONValue.string) ?? .null, "to": to.map(JSONValue.string) ?? .null,
                "index": index.map { JSONValue.int(Int64($0)) } ?? .null, "cause": .string(cause.description),
            ]
        case .earcon(let name, let duration):
            return ["type": "earcon", "name": .string(name), "duration_ms": .int(duration.milliseconds)]
        case .sound(let name, let duration, let heard):
            return [
                "type": "sound", "name": .string(name), "duration_ms": .int(duration.milliseconds),
                "heard": .bool(heard),
            ]
        case .media(let track, let heard):
            return [
                "type": "media", "name": .string(track.name), "duration_ms": .int(track.duration.milliseconds),
                "heard": .bool(heard), "captions": .int(Int64(track.captions.count)),
            ]
        case .caption(let text, let until):
            return ["type": "caption", "text": .string(text), "until_ms": .int(until.milliseconds)]
        case .visibleText(let text, let until):
            var fields: JSONObject = ["type": "text", "text": .string(text)]
            if let until { fields["until_ms"] = .int(until.milliseconds) }
            return fields
        case .announcementDidFinish(let id, let text, let success):
            return [
                "type": "announcementDidFinish", "utterance": .int(Int64(id)), "text": .string(text),
                "wasSuccessful": .bool(success),
            ]
        case .scanHighlight(let id): return ["type": "scan", "element": .string(id)]
        case .focusLost(let id): return ["type": "focusLost", "element": .string(id)]
        }
    }
}

/// A JSON object whose keys are written in sorted order (built like a dictionary, written by ``JSONValue``).
struct JSONObject: ExpressibleByDictionaryLiteral {
    var fields: [String: JSONValue]

    init(dictionaryLiteral elements: (String, JSONValue)...) {
        fields = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    subscript(key: String) -> JSONValue? {
        get { fields[key] }
        set { fields[key] = newValue }
    }

    /// The object, its members sorted by key.
    var value: JSONValue { .object(fields.keys.sorted().compactMap { key in fields[key].map { (key, $0) } }) }

    func write(to output: inout String) { value.write(compactInto: &output) }
}
