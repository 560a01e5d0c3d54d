import EarshotCore

/// Screens and their elements, data tables and media.
extension ParserState {
    mutating func parseScreen(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line, skipping: 1)
        let name = try cursor.word("the screen's name")
        try cursor.finish()
        if screens.contains(where: { $0.name == name.text }) {
            throw cursor.failure(at: name, "duplicate screen '\(name.text)'", hint: "give each screen its own name")
        }
        try requireBlock(line, keyword: "screen")
        var seen: [String: Int] = [:]
        let elements = parseElements(line.children, suffix: nil, seen: &seen)
        screens.append(ScenarioScreen(name: name.text, elements: elements, location: location(line, line.tokens.first)))
    }

    /// Parses element lines; `seen` maps ids already used on this screen to their line.
    private mutating func parseElements(_ lines: [ScriptLine], suffix: String?, seen: inout [String: Int])
        -> [ScenarioElement]
    {
        var elements: [ScenarioElement] = []
        for line in lines where elementCount <= ScenarioLimits.mostElements {
            do throws(ParseFailure) {
                if line.tokens.first?.text == "repeat" {
                    guard suffix == nil else {
                        throw TokenCursor(line).failure(at: line.tokens.first, "a repeat cannot hold another repeat")
                    }
                    var cursor = TokenCursor(line, skipping: 1)
                    let countToken = cursor.current
                    let count = try cursor.integer("how many times", minimum: 1)
                    try cursor.finish()
                    try requireBlock(line, keyword: "repeat")
                    try checkRepeatLimit(count, at: countToken, cursor: cursor)
                    let before = diagnostics.count
                    for index in 1...count {
                        elements += parseElements(line.children, suffix: "-\(index)", seen: &seen)
                        // Every copy would repeat the first copy's mistakes; past the limit nothing is added.
                        if diagnostics.count > before || elementCount > ScenarioLimits.mostElements { break }
                    }
                } else {
                    elements.append(try parseElement(line, suffix: suffix, seen: &seen))
                }
            } catch {
                report(error)
            }
        }
        return elements
    }

    private mutating func parseElement(_ line: ScriptLine, suffix: String?, seen: inout [String: Int])
        throws(ParseFailure) -> ScenarioElement
    {
        var cursor = TokenCursor(line)
        let kindToken = try cursor.keyword(ScenarioElementKind.allCases.map(\.rawValue), what: "element kind")
        let kind = ScenarioElementKind(rawValue: kindToken.text) ?? .text
        let idToken = try cursor.word("an element id")
        try countElement(at: kindToken, cursor: cursor)
        let id = idToken.text + (suffix ?? "")
        if let first = seen[id] {
            // Report a repeat's duplicates only once, on the first copy.
            if suffix == nil || suffix == "-1" {
                throw cursor.failure(
                    at: idToken, "duplicate element id '\(id)'",
                    hint: "'\(id)' is already declared on line \(first) of this screen")
            }
        }
        seen[id] = line.number
        var element = ScenarioElement(
            kind: kind, id: id, label: "", value: nil, hint: nil, traits: [],
            switchOn: kind == .toggle ? false : nil, hidden: false, placeholder: false, media: nil,
            container: kind == .group ? .contain : nil, children: [], location: location(line, kindToken))
        if cursor.atString { element.label = cursor.advance()?.text ?? "" }
        let attributes = [
            "value", "hint", "trait", "switch", "on", "off", "hidden", "placeholder", "media", "combine",
            "contain", "level", "prompt", "action", "list", "landmark",
        ]
        while !cursor.isAtEnd {
            let attribute = try cursor.keyword(attributes, what: "element attribute")
            switch attribute.text {
            case "value": element.value = try cursor.string("the value").text
            case "hint": element.hint = try cursor.string("the hint").text
            case "trait":
                let trait = try cursor.keyword(ScenarioTrait.allCases.map(\.rawValue), what: "trait")
                if let value = ScenarioTrait(rawValue: trait.text) { element.traits.append(value) }
            case "switch": element.switchOn = try cursor.flag("on or off")
            case "on", "off":
                guard kind == .toggle else {
                    throw cursor.failure(
                        at: attribute, "'\(attribute.text)' is only for a toggle",
                        hint: "write 'switch \(attribute.text)' to give this element a switch state")
                }
                element.switchOn = attribute.text == "on"
            case "level":
                guard kind == .header || element.allTraits.contains(.header) else {
                    throw cursor.failure(at: attribute, "'level' is only for a header")
                }
                let levelToken = cursor.current
                let level = try cursor.integer("the heading level", minimum: 1)
                guard level <= 6 else {
                    throw cursor.failure(at: levelToken, "heading level \(level) is outside 1...6")
                }
                element.headingLevel = level
            case "prompt":
                guard [.textField, .searchField, .secureField].contains(kind) else {
                    throw cursor.failure(
                        at: attribute, "'prompt' is only for a textField, searchField or secureField",
                        hint: "the prompt is the placeholder a text field reads while it is empty")
                }
                element.prompt = try cursor.string("the prompt").text
            case "action": element.customActions.append(try cursor.string("the action's name").text)
            case "list", "landmark":
                guard kind == .group else {
                    throw cursor.failure(at: attribute, "'\(attribute.text)' is only for a group")
                }
                element.containerType = ScenarioContainerType(rawValue: attribute.text)
            case "hidden": element.hidden = true
            case "placeholder": element.placeholder = true
            case "media":
                guard kind == .video else { throw cursor.failure(at: attribute, "'media' is only for a video") }
                let name = try cursor.word("a media name")
                reference(.media, name, line: line)
                element.media = name.text
            default:
                guard kind == .group else {
                    throw cursor.failure(at: attribute, "'\(attribute.text)' is only for a group")
                }
                element.container = ScenarioContainer(rawValue: attribute.text)
            }
        }
        if kind == .group {
            try requireBlock(line, keyword: "group")
            element.children = parseElements(line.children, suffix: suffix, seen: &seen)
        } else {
            rejectBlock(line, keyword: kindToken.text)
        }
        return element
    }

    mutating func parseData(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line, skipping: 1)
        let name = try cursor.word("the table's name")
        if dataTables.contains(where: { $0.name == name.text }) {
            throw cursor.failure(at: name, "duplicate data table '\(name.text)'")
        }
        var keyElement: String?
        if let key = cursor.current, key.kind == .word, key.text != "default" {
            cursor.advance()
            reference(.element, key, line: line)
            keyElement = key.text
        }
        let defaultValue = cursor.accept("default") ? try cursor.string("the text for a missing key").text : nil
        if cursor.current?.kind == .colon { cursor.advance() }
        var entries = try parsePairs(&cursor)
        for child in line.children {
            do throws(ParseFailure) {
                var childCursor = TokenCursor(child)
                entries += try parsePairs(&childCursor)
                rejectBlock(child, keyword: "data")
            } catch {
                report(error)
            }
        }
        if entries.isEmpty { throw cursor.failure(at: nil, "the data table '\(name.text)' has no key=value entries") }
        dataTables.append(
            ScenarioDataTable(
                name: name.text, keyElement: keyElement, entries: entries,
                location: location(line, line.tokens.first), defaultValue: defaultValue))
    }

    private func parsePairs(_ cursor: inout TokenCursor) throws(ParseFailure) -> [ScenarioDataEntry] {
        var entries: [ScenarioDataEntry] = []
        while let key = cursor.advance() {
            guard key.kind == .word || key.kind == .string else {
                throw cursor.failure(
                    at: key, "expected a key=value entry", hint: "write entries like j=42 \"two words\"=3")
            }
            guard cursor.current?.kind == .equals else {
                throw cursor.failure(
                    at: cursor.current, "expected '=' after the key '\(key.text)'",
                    hint: "write entries like j=42 \"two words\"=3")
            }
            cursor.advance()
            guard let value = cursor.advance(), value.kind == .word || value.kind == .string else {
                throw cursor.failure(at: nil, "expected a value after '\(key.text)='")
            }
            entries.append(ScenarioDataEntry(key: key.text, value: value.text))
        }
        return entries
    }

    mutating func parseMedia(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line, skipping: 1)
        let name = try cursor.word("the media's name")
        if media.contains(where: { $0.name == name.text }) {
            throw cursor.failure(at: name, "duplicate media '\(name.text)'")
        }
        guard cursor.accept("duration") else {
            throw cursor.failure(
                at: cursor.current, "expected 'duration' after the media's name",
                hint: "write: media \(name.text) duration 6s:")
        }
        let duration = try cursor.span("the media's duration")
        try cursor.finish()
        var item = ScenarioMedia(
            name: name.text, duration: duration, narration: [], captions: [],
            location: location(line, line.tokens.first))
        for child in line.children {
            do throws(ParseFailure) {
                var childCursor = TokenCursor(child)
                let kind = try childCursor.keyword(["narration", "caption"], what: "media line")
                guard childCursor.accept("at") else {
                    throw childCursor.failure(
                        at: childCursor.current, "expected 'at' and an offset",
                        hint: "write: \(kind.text) at 1s \"…\"")
                }
                let offset = try childCursor.span("the offset into the media")
                var until: TimeSpan?
                if childCursor.accept("until") { until = try childCursor.span("when the caption ends") }
                let text = try childCursor.string("the text")
                try childCursor.finish()
                rejectBlock(child, keyword: kind.text)
                let timed = ScenarioTimedText(
                    offset: offset, until: until, text: text.text,
                    location: location(child, child.tokens.first))
                if kind.text == "narration" { item.narration.append(timed) } else { item.captions.append(timed) }
            } catch {
                report(error)
            }
        }
        media.append(item)
    }
}
