import EarshotCore
import EarshotTestSupport
import Testing

/// Every label and value of a screen as raw UTF-8 bytes with the tree's shape: `==` on strings ignores
/// differences between canonically equivalent spellings, and the history must give back the exact bytes.
func fingerprint(_ screen: Screen) -> [[UInt8]] {
    var out: [[UInt8]] = [Array(screen.name.utf8)]
    func walk(_ list: [AccessibilityElement], depth: UInt8) {
        for element in list {
            out.append([depth, element.isHidden ? 1 : 0] + Array(element.id.utf8))
            out.append(Array(element.label.utf8))
            out.append(Array(element.value.utf8))
            out.append(Array(element.hint.utf8))
            walk(element.children, depth: depth + 1)
        }
    }
    walk(screen.elements, depth: 0)
    return out
}

/// The first snapshot where `history` differs from `copies` (by value or by bytes), nil when none does.
func firstDifference(_ history: ScreenHistory, _ copies: [ScreenSnapshot]) -> Int? {
    guard history.count == copies.count else { return min(history.count, copies.count) }
    for (index, (rebuilt, copy)) in zip(history.allSnapshots, copies).enumerated() {
        let direct = history.snapshot(index)
        let asked = history.screen(at: copy.at, before: copy.sequence + 1)
        guard rebuilt.at == copy.at, rebuilt.sequence == copy.sequence, rebuilt.screen == copy.screen,
            fingerprint(rebuilt.screen) == fingerprint(copy.screen),
            fingerprint(direct.screen) == fingerprint(copy.screen),
            asked.map(fingerprint) == fingerprint(copy.screen)
        else { return index }
    }
    return nil
}

@Suite("Screen history")
struct ScreenHistoryTests {
    static let pieces = ["a", "é", "e\u{301}", "👩‍👩‍👧", "中", " ", "z", "è"]

    /// A random screen of nested elements, and the paths of all of them.
    static func randomScreen(_ name: String, _ rng: inout SplitMix64) -> Screen {
        func elements(_ prefix: String, depth: Int) -> [AccessibilityElement] {
            (0..<Int.random(in: 1...5, using: &rng)).map { index in
                let id = "\(prefix)\(index)"
                let children = depth < 2 && Bool.random(using: &rng) ? elements(id + ".", depth: depth + 1) : []
                return AccessibilityElement(id: id, label: "label \(id)", value: "", children: children)
            }
        }
        return Screen(name: name, elements: elements(name, depth: 0))
    }

    static func paths(_ list: [AccessibilityElement], _ prefix: [Int] = []) -> [[Int]] {
        list.indices.flatMap { [prefix + [$0]] + paths(list[$0].children, prefix + [$0]) }
    }

    /// One random change to a string: append, delete, replace a middle part, or a whole new text.
    static func edit(_ text: String, _ rng: inout SplitMix64) -> String {
        var characters = Array(text)
        let piece = pieces.randomElement(using: &rng) ?? "a"
        switch Int.random(in: 0..<5, using: &rng) {
        case 0, 1: return text + piece
        case 2: return String(characters.dropLast())
        case 3:
            guard !characters.isEmpty else { return piece }
            let at = Int.random(in: 0..<characters.count, using: &rng)
            characters.replaceSubrange(at..<min(characters.count, at + 2), with: Array(piece))
            return String(characters)
        default: return String(repeating: piece, count: Int.random(in: 0...3, using: &rng))
        }
    }

    /// A randomized run: element changes (mostly values), other screens shown now and then, several changes per
    /// instant. Returns the history and the full copy after each change.
    static func randomRun(seed: UInt64, changes: Int) -> (ScreenHistory, [ScreenSnapshot]) {
        var rng = SplitMix64(state: seed)
        var screen = randomScreen("s", &rng)
        var history = ScreenHistory()
        var copies: [ScreenSnapshot] = []
        var at = Instant.zero
        history.record(screen, at: at, sequence: 0)
        copies.append(ScreenSnapshot(at: at, sequence: 0, screen: screen))
        for sequence in 1...changes {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                at = at + TimeSpan.milliseconds(Int64.random(in: 1...50, using: &rng))
            }
            if Int.random(in: 0..<200, using: &rng) == 0 {
                screen = randomScreen("t\(sequence)", &rng)
                history.record(screen, at: at, sequence: sequence)
            } else {
                let all = paths(screen.elements)
                let path = all[Int.random(in: 0..<all.count, using: &rng)]
                guard let old = screen.element(at: path) else { continue }
                screen.update(at: path) { element in
                    switch Int.random(in: 0..<10, using: &rng) {
                    case 0: element.label = edit(element.label, &rng)
                    case 1: element.isHidden.toggle()
                    default: element.value = edit(element.value, &rng)
                    }
                }
                guard let new = screen.element(at: path) else { continue }
                history.recordChange(at: at, sequence: sequence, path: path, from: old, to: new, in: screen)
            }
            copies.append(ScreenSnapshot(at: at, sequence: sequence, screen: screen))
        }
        return (history, copies)
    }

    @Test("The history gives back every full copy, byte for byte", arguments: [1, 2, 3] as [UInt64])
    func historyEqualsFullCopies(seed: UInt64) {
        let (history, copies) = Self.randomRun(seed: seed, changes: 1500)
        #expect(history.count == copies.count)
        #expect(firstDifference(history, copies) == nil)
    }

    @Test("Snapshots in a range are the copies whose instant is in it, and screen(at:) takes the last")
    func rangesAndInstants() {
        let (history, copies) = Self.randomRun(seed: 7, changes: 600)
        let end = copies.last?.at ?? .zero
        for step in stride(from: 0, to: 600, by: 37) {
            let low = Instant.milliseconds(Int64(step) * 3)
            let range = low...(low + TimeSpan.milliseconds(40))
            let expected = copies.filter { range.contains($0.at) }
            let got = Array(history.snapshots(in: range))
            #expect(got.map { $0.sequence } == expected.map { $0.sequence })
            #expect(zip(got, expected).allSatisfy { fingerprint($0.screen) == fingerprint($1.screen) })
            let last = copies.last { $0.at <= low }
            #expect(history.screen(at: low).map(fingerprint) == last.map { fingerprint($0.screen) })
        }
        #expect(
            history.screen(at: end + TimeSpan.seconds(1)).map(fingerprint) == copies.last.map { fingerprint($0.screen) }
        )
    }

    @Test("Nothing before the first snapshot")
    func nothingBeforeTheStart() {
        var history = ScreenHistory()
        #expect(history.screen(at: .zero) == nil)
        history.record(Screen(name: "s", elements: []), at: .seconds(1), sequence: 3)
        #expect(history.screen(at: .zero) == nil)
        #expect(history.screen(at: .seconds(1), before: 3) == nil)
        #expect(history.screen(at: .seconds(1))?.name == "s")
    }

    @Test("A history fed a wrong old element is caught")
    func wrongAnswerIsDetected() {
        let before = AccessibilityElement(id: "f", value: "caf\u{E9}")
        let after = AccessibilityElement(id: "f", value: "caf\u{E9}s")
        let start = Screen(name: "s", elements: [before])
        let changed = Screen(name: "s", elements: [after])
        let copies = [
            ScreenSnapshot(at: .zero, sequence: 0, screen: start),
            ScreenSnapshot(at: .zero, sequence: 1, screen: changed),
        ]
        var right = ScreenHistory()
        right.record(start, at: .zero, sequence: 0)
        right.recordChange(at: .zero, sequence: 1, path: [0], from: before, to: after, in: changed)
        #expect(firstDifference(right, copies) == nil)
        // Told the old value was "caf", the history keeps an edit that inserts after "caf": replayed onto the real
        // old value it gives "cafésé", and the comparison must say so at the changed snapshot.
        var wrong = ScreenHistory()
        wrong.record(start, at: .zero, sequence: 0)
        let claimed = AccessibilityElement(id: "f", value: "caf")
        wrong.recordChange(at: .zero, sequence: 1, path: [0], from: claimed, to: after, in: changed)
        #expect(firstDifference(wrong, copies) == 1)
        #expect(wrong.snapshot(1).screen.elements.first?.value == "caf\u{E9}s\u{E9}")
    }

    @Test("The comparison sees bytes that String equality does not")
    func fingerprintSeesBytes() {
        let composed = Screen(name: "s", elements: [AccessibilityElement(id: "f", value: "caf\u{E9}")])
        let decomposed = Screen(name: "s", elements: [AccessibilityElement(id: "f", value: "cafe\u{301}")])
        #expect(composed == decomposed)
        #expect(fingerprint(composed) != fingerprint(decomposed))
        #expect(fingerprint(composed) == fingerprint(composed))
    }

    @Test(
        "A string edit gives back the new string's exact bytes and keeps only what changed",
        arguments: [
            ("", "a", 1), ("abc", "abcd", 1), ("abcd", "abc", 0), ("caf\u{E9}", "caf\u{E8}", 2),
            ("cafe\u{301}", "caf\u{E9}", 2), ("a👩‍👩‍👧b", "a👩‍👩‍👦b", 4), ("xyz", "", 0), ("same", "same", 0),
            ("中文", "中中文", 3),
        ] as [(String, String, Int)])
    func stringEdits(old: String, new: String, insertedBytes: Int) throws {
        let edit = try #require(StringEdit(from: old, to: new))
        var result = old
        edit.apply(to: &result)
        #expect(Array(result.utf8) == Array(new.utf8))
        #expect(edit.inserted.utf8.count == insertedBytes)
    }

    /// `keys` characters typed one by one into a field beside 10 buttons: the history and the full copies' weight.
    static func typing(keys: Int) -> (history: ScreenHistory, fullCopies: Int, last: Screen) {
        let buttons = (0..<10).map { AccessibilityElement(id: "b\($0)", label: "Button \($0)") }
        var screen = Screen(name: "s", elements: [AccessibilityElement(id: "field", label: "Search")] + buttons)
        var history = ScreenHistory()
        history.record(screen, at: .zero, sequence: 0)
        var fullCopies = ScreenHistory.weight(of: screen.elements)
        for key in 1...keys {
            guard let old = screen.element(at: [0]) else { break }
            screen.update(at: [0]) { $0.value += ["t", "e", "a", " "][key % 4] }
            guard let new = screen.element(at: [0]) else { break }
            history.recordChange(
                at: .milliseconds(Int64(key) * 150), sequence: key, path: [0], from: old, to: new, in: screen)
            fullCopies += ScreenHistory.weight(of: screen.elements)
        }
        return (history, fullCopies, screen)
    }

    @Test("Typing into one field keeps a history that grows linearly, not a copy per key")
    func typingGrowsLinearly() {
        let small = Self.typing(keys: 4000)
        let large = Self.typing(keys: 8000)
        // Twice the keys: full copies weigh about four times as much; the history about twice.
        #expect(Double(large.fullCopies) / Double(small.fullCopies) > 3)
        #expect(Double(large.history.storedWeight) / Double(small.history.storedWeight) < 2.5)
        #expect(large.history.storedWeight * 10 < large.fullCopies)
        #expect(large.history.screen(at: .seconds(3600)).map(fingerprint) == fingerprint(large.last))
    }
}
