import EarshotCore

/// App actions, user actions, the timeline and templates.
extension ParserState {
    // MARK: Timeline

    mutating func parseTimedLine(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line)
        guard let first = cursor.current else { return }
        var time = cursorTime
        if cursor.accept("at") {
            let token = cursor.current
            let span = try cursor.span("a time such as 1.2s")
            let at = Instant.zero + span
            if at < cursorTime {
                throw cursor.failure(
                    at: token, "time goes backwards: \(at) is before \(cursorTime)",
                    hint: "timed lines run in order; the previous line is at \(cursorTime)")
            }
            time = at
        } else if first.text.hasPrefix("+") {
            cursor.advance()
            guard let span = DurationLiteral.span(String(first.text.dropFirst())) else {
                throw cursor.failure(at: first, "bad duration '\(first.text)'", hint: DurationLiteral.hint)
            }
            try cursor.checkLimit(span, at: first)
            time = cursorTime + span
        } else if cursor.accept("wait") {
            let span = try cursor.span("how long to wait")
            try cursor.finish()
            rejectBlock(line, keyword: "wait")
            cursorTime = cursorTime + span
            endTime = max(endTime, cursorTime)
            try checkTimelineLimits(line, events: 0)
            return
        }
        var repetition: ScenarioRepetition?
        if cursor.accept("every") {
            let intervalToken = cursor.current
            let interval = try cursor.span("the repeat interval")
            guard interval > .zero else { throw cursor.failure(at: intervalToken, "the repeat interval must be > 0") }
            let count: Int
            if cursor.accept("for") {
                count = Int(try cursor.span("how long it repeats").nanoseconds / interval.nanoseconds)
            } else if cursor.accept("times") {
                count = try cursor.integer("how many times", minimum: 1)
            } else if cursor.accept("until") {
                let until = Instant.zero + (try cursor.span("when it stops"))
                count = Int(max(0, (until - time).nanoseconds / interval.nanoseconds))
            } else {
                throw cursor.failure(
                    at: cursor.current, "expected 'for', 'times' or 'until' after the interval",
                    hint: "write e.g. every 1s for 60s set stopwatch label \"{clock}\"")
            }
            repetition = ScenarioRepetition(interval: interval, count: count)
        }
        guard let actionToken = cursor.current, actionToken.kind == .word else {
            throw cursor.failure(at: cursor.current, "expected an action, found \(cursor.foundDescription)")
        }
        let action: ScenarioTimedAction
        var busy = TimeSpan.zero
        var events = 1
        if userActionKeywords.contains(actionToken.text) {
            let user = try parseUserAction(&cursor, line: line)
            switch user.kind {
            case .type(let text, let interval):
                busy = interval * max(0, text.count - 1)
                events = text.count
            case .swipe(_, let times, let interval):
                busy = interval * max(0, times - 1)
                events = times
            default: break
            }
            rejectBlock(line, keyword: actionToken.text)
            action = .user(user)
        } else if appActionKeywords.contains(actionToken.text) {
            action = .app(try parseAppAction(&cursor, line: line))
        } else {
            throw cursor.failure(
                at: actionToken, "unknown action '\(actionToken.text)'",
                hint: Suggestion.hint(
                    for: actionToken.text, among: userActionKeywords + appActionKeywords, listing: true))
        }
        if let repetition { busy = busy + repetition.interval * repetition.count }
        cursorTime = time
        endTime = max(endTime, time + busy)
        let repeats = repetition.map { max(1, $0.count) } ?? 1
        try checkTimelineLimits(
            line, events: repeats > ScenarioLimits.mostEvents / max(1, events) ? Int.max : repeats * events)
        timeline.append(
            ScenarioTimedEvent(
                time: time, repetition: repetition, action: action,
                location: location(line, first)))
    }

    private mutating func parseUserAction(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure)
        -> ScenarioUserAction
    {
        guard let token = cursor.advance() else { throw cursor.failure(at: nil, "expected a user action") }
        let kind: ScenarioUserActionKind
        switch token.text {
        case "focus":
            let id = try cursor.word("an element id")
            reference(.element, id, line: line)
            kind = .focus(element: id.text)
        case "swipe":
            let direction = try cursor.keyword(
                ScenarioSwipeDirection.allCases.map(\.rawValue), what: "swipe direction")
            var times = 1
            var interval = TimeSpan.milliseconds(300)
            if let next = cursor.peekWord(), Int(next) != nil {
                times = try cursor.integer("how many swipes", minimum: 1)
                guard cursor.accept("times") || cursor.accept("time") else {
                    throw cursor.failure(at: cursor.current, "expected 'times' after the count")
                }
            }
            if cursor.accept("every") { interval = try cursor.span("the time between swipes") }
            kind = .swipe(ScenarioSwipeDirection(rawValue: direction.text) ?? .next, times: times, interval: interval)
        case "activate":
            var element: String?
            if let id = cursor.current, id.kind == .word {
                cursor.advance()
                reference(.element, id, line: line)
                element = id.text
            }
            kind = .activate(element: element)
        case "type":
            let text = try cursor.string("the text to type")
            guard !text.text.isEmpty else { throw cursor.failure(at: text, "nothing to type") }
            var interval = TimeSpan.milliseconds(150)
            if cursor.accept("every") { interval = try cursor.span("the time between keys") }
            kind = .type(text.text, interval: interval)
        case "submit":
            kind = .submit
        default:
            kind = .scan
        }
        try cursor.finish()
        return ScenarioUserAction(kind: kind, location: location(line, token))
    }

    // MARK: App actions

    /// Parses the lines of a block (`on …:`, `debounce`, `after`, `load`) as app actions.
    mutating func parseAppActionBlock(_ lines: [ScriptLine]) -> [ScenarioAppAction] {
        var actions: [ScenarioAppAction] = []
        for line in lines {
            do throws(ParseFailure) {
                var cursor = TokenCursor(line)
                guard let first = cursor.current, first.kind == .word, appActionKeywords.contains(first.text) else {
                    let found = cursor.current
                    var hint = Suggestion.hint(for: found?.text ?? "", among: appActionKeywords)
                    if let word = found?.text, userActionKeywords.contains(word) || word == "at" || word.hasPrefix("+")
                    {
                        hint = "user actions and timed lines go at the top level, not inside a block"
                    }
                    throw cursor.failure(
                        at: found, "expected an app action, found \(cursor.foundDescription)",
                        hint: hint ?? "write one of: \(appActionKeywords.joined(separator: ", "))")
                }
                actions.append(try parseAppAction(&cursor, line: line))
            } catch {
                report(error)
            }
        }
        return actions
    }

    mutating func parseAppAction(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure)
        -> ScenarioAppAction
    {
        guard let token = cursor.advance() else { throw cursor.failure(at: nil, "expected an app action") }
        let here = location(line, token)
        let kind: ScenarioAppActionKind
        var takesBlock = false
        switch token.text {
        case "announce":
            let text = try template(&cursor, line: line, what: "the announcement")
            var priority = ScenarioPriority.default
            var queued = false
            while !cursor.isAtEnd {
                let option = try cursor.keyword(["priority", "queued"], what: "announcement option")
                if option.text == "queued" {
                    queued = true
                } else {
                    let level = try cursor.keyword(ScenarioPriority.allCases.map(\.rawValue), what: "priority")
                    priority = ScenarioPriority(rawValue: level.text) ?? .default
                }
            }
            kind = .announce(text, priority: priority, queued: queued)
        case "set":
            let id = try cursor.word("an element id")
            reference(.element, id, line: line)
            let property = try cursor.keyword(["value", "label", "hint", "hidden", "switch"], what: "property")
            let value: ScenarioProperty
            switch property.text {
            case "value": value = .value(try template(&cursor, line: line, what: "the value"))
            case "label": value = .label(try template(&cursor, line: line, what: "the label"))
            case "hint": value = .hint(try template(&cursor, line: line, what: "the hint"))
            case "hidden": value = .hidden(try cursor.flag("true or false"))
            default: value = .switchOn(try cursor.flag("on or off"))
            }
            kind = .set(element: id.text, value)
        case "debounce", "after":
            let span = try cursor.span("how long to wait")
            try cursor.finish()
            try requireBlock(line, keyword: token.text)
            takesBlock = true
            let block = parseAppActionBlock(line.children)
            kind = token.text == "debounce" ? .debounce(span, block) : .after(span, block)
        case "screenChanged", "layoutChanged":
            var argument = ScenarioNotificationArgument.none
            if let next = cursor.current {
                if next.kind == .string {
                    argument = .text(try template(&cursor, line: line, what: "the text"))
                } else if next.kind == .word, next.text != "nil" {
                    cursor.advance()
                    reference(.element, next, line: line)
                    argument = .element(next.text)
                } else {
                    cursor.advance()
                }
            }
            kind = token.text == "screenChanged" ? .screenChanged(argument) : .layoutChanged(argument)
        case "ssip":
            kind = .ssip(try parseSSIP(&cursor, line: line))
        case "pageScrolled":
            kind = .pageScrolled(try template(&cursor, line: line, what: "the text"))
        case "play":
            let what = try cursor.keyword(["sound", "media"], what: "thing to play")
            let name = try cursor.word("a name")
            if what.text == "media" {
                reference(.media, name, line: line)
                kind = .playMedia(name: name.text)
            } else {
                var duration: TimeSpan?
                if cursor.accept("duration") { duration = try cursor.span("the sound's duration") }
                kind = .playSound(name: name.text, duration: duration)
            }
        case "show":
            let what = try cursor.keyword(["text", "screen"], what: "thing to show")
            if what.text == "screen" {
                let name = try cursor.word("a screen name")
                reference(.screen, name, line: line)
                kind = .showScreen(name: name.text)
            } else {
                let text = try template(&cursor, line: line, what: "the text")
                var duration: TimeSpan?
                if cursor.accept("for") { duration = try cursor.span("how long it shows") }
                kind = .showText(text, duration: duration)
            }
        default:  // load
            let name = try cursor.word("the load's name")
            guard cursor.accept("after") else {
                throw cursor.failure(
                    at: cursor.current, "expected 'after' and a delay",
                    hint: "write: load \(name.text) after 2s on 3g 6s:")
            }
            let delay = try cursor.span("the load's delay")
            var byNetwork: [String: TimeSpan] = [:]
            while cursor.accept("on") {
                let network = try cursor.word("a network name")
                byNetwork[network.text.lowercased()] = try cursor.span("the delay on \(network.text)")
            }
            try cursor.finish()
            try requireBlock(line, keyword: "load")
            takesBlock = true
            if !loadNames.contains(name.text) { loadNames.append(name.text) }
            kind = .load(
                ScenarioLoad(
                    name: name.text, delay: delay, networkDelays: byNetwork,
                    actions: parseAppActionBlock(line.children)))
        }
        try cursor.finish()
        if !takesBlock { rejectBlock(line, keyword: token.text) }
        return ScenarioAppAction(kind: kind, location: here)
    }

    // MARK: Templates

    /// Parses a string token's `{…}` interpolations.
    mutating func template(_ cursor: inout TokenCursor, line: ScriptLine, what: String) throws(ParseFailure)
        -> ScenarioTemplate
    {
        let token = try cursor.string(what)
        var parts: [ScenarioTemplatePart] = []
        var literal = ""
        let chars = Array(token.text)
        var index = 0
        while index < chars.count {
            guard chars[index] == "{" else {
                literal.append(chars[index])
                index += 1
                continue
            }
            let open = index
            guard let close = chars[open...].firstIndex(of: "}") else {
                throw ParseFailure(
                    line: line.number, column: token.column + 1 + open, length: chars.count - open,
                    message: "unterminated interpolation", hint: "close it with '}'")
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            let column = token.column + 1 + open
            parts.append(
                try interpolation(
                    String(chars[(open + 1)..<close]), line: line, column: column,
                    length: close - open + 1))
            index = close + 1
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(literal)) }
        return ScenarioTemplate(parts: parts)
    }

    private mutating func interpolation(_ body: String, line: ScriptLine, column: Int, length: Int)
        throws(ParseFailure) -> ScenarioTemplatePart
    {
        let words = body.split(separator: " ").map(String.init)
        let fail = { (message: String, hint: String?) in
            ParseFailure(line: line.number, column: column, length: length, message: message, hint: hint)
        }
        let forms = "use {value ID}, {label ID}, {TABLE ID}, {TABLE}, {clock}, {countdown 12m} or {count}"
        guard let head = words.first else { throw fail("empty interpolation '{}'", forms) }
        func elementReference(_ name: String) {
            references.append(Reference(kind: .element, name: name, line: line.number, column: column, length: length))
        }
        switch (head, words.count) {
        case ("value", 2), ("label", 2):
            elementReference(words[1])
            return head == "value" ? .value(element: words[1]) : .label(element: words[1])
        case ("clock", 1): return .clock
        case ("count", 1): return .count
        case ("countdown", 2):
            guard let span = DurationLiteral.span(words[1]) else {
                throw fail("bad duration '\(words[1])'", DurationLiteral.hint)
            }
            guard span <= ScenarioLimits.longestTime else {
                throw fail("'\(words[1])' is longer than the 24-hour limit", "a countdown starts at most at 24h")
            }
            return .countdown(from: span)
        case (_, 1), (_, 2):
            guard let defaultKey = tableKeys[head] else {
                throw fail(
                    "unknown data table '\(head)' in interpolation",
                    Suggestion.hint(
                        for: head,
                        among: Array(tableKeys.keys) + [
                            "value", "label", "clock", "countdown",
                            "count",
                        ]) ?? forms)
            }
            let key = words.count == 2 ? words[1] : defaultKey
            guard !key.isEmpty else {
                throw fail(
                    "the data table '\(head)' has no key element", "write {\(head) ID} with the element to look up")
            }
            elementReference(key)
            return .lookup(table: head, keyElement: key)
        default:
            throw fail("cannot read the interpolation '{\(body)}'", forms)
        }
    }
}
