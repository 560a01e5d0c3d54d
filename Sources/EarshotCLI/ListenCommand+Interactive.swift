import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ListenCommand {
    /// The keys, as the interactive listener shows them.
    static let interactiveHelp =
        "←/→ swipe · Enter activate · keys type into the focused field · "
        + "Tab before/after · Esc or Ctrl-C quit"

    /// `--interactive SCRIPT`: the script supplies the screen and the app's behaviour, the designer the user.
    ///
    /// 1. The terminal goes to raw mode (restored on every way out, by `TerminalMode`).
    /// 2. The script's timed app events still run; its timed user actions do not, except those at 0 s (the
    ///    starting focus), because the designer is the user now.
    /// 3. A reader thread decodes keys and posts them to the live session as user actions: ←/→ swipe, Enter
    ///    activates, printable keys type into the focused field. Tab ends the session and starts the sibling
    ///    script (before ↔ after) with focus on the same element; Esc or Ctrl-C silence the device and quit.
    /// 4. Each script's transcript is printed when it is left.
    static func runInteractive(_ document: ScenarioDocument, setup: ListenSetup) throws -> Int32 {
        guard let terminal = TerminalMode.enterRaw(descriptor: STDIN_FILENO) else {
            throw CommandFailure("--interactive needs a terminal on standard input (it reads keys)")
        }
        defer { terminal.restore() }
        let context = setup.context
        let control = setup.control
        context.print("interactive: " + interactiveHelp)
        let reader = KeyReader(descriptor: terminal.descriptor, control: control) { path in
            FileManager.default.fileExists(atPath: ListenCommand.siblingPath(of: path))
                ? nil
                : "(no \(path.contains("before") ? "after" : "before") script next to \(path))"
        }
        reader.start()
        defer { reader.stop() }
        var current = document
        var focus: String?
        while true {
            reader.setPath(current.path)
            let simulation = try setup.simulation(for: userless(current, keepingStart: focus == nil))
            if let focus { simulation.schedule(.focus(focus), at: .zero) }
            let ending = try setup.run(simulation, document: current, scriptEnd: nil)
            if case .deviceLost = ending { return ExitCode.failure }
            guard control.takeToggle(), !control.isQuitting else { break }
            let sibling = siblingPath(of: current.path)
            guard let next = try ScenarioInputs.parse([sibling]).first else { break }
            focus = simulation.focusedID
            current = next
            context.print("\n⇆ Tab: switching to \(next.header.variant.rawValue) — \(sibling)")
        }
        return ExitCode.success
    }

    /// The document without its timed user actions (the designer is the user), keeping those at 0 s if asked.
    static func userless(_ document: ScenarioDocument, keepingStart: Bool) -> ScenarioDocument {
        var copy = document
        copy.timeline = document.timeline.filter { event in
            if case .user = event.action { return keepingStart && event.time == .zero }
            return true
        }
        return copy
    }
}

/// Reads keys on its own thread and turns them into user actions for the current live session.
final class KeyReader: @unchecked Sendable {
    private let descriptor: Int32
    private let control: ListenControl
    private let siblingProblem: @Sendable (String) -> String?
    private let lock = NSLock()
    private var running = true
    private var path = ""
    private let done = DispatchSemaphore(value: 0)

    /// `siblingProblem(path)`: why Tab cannot switch from `path`, or nil when it can.
    init(descriptor: Int32, control: ListenControl, siblingProblem: @escaping @Sendable (String) -> String?) {
        self.descriptor = descriptor
        self.control = control
        self.siblingProblem = siblingProblem
    }

    /// The script playing now (for Tab).
    func setPath(_ path: String) { lock.withLock { self.path = path } }

    /// Starts the reader thread.
    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "earshot.keys"
        thread.start()
    }

    /// Stops the reader thread and waits for it (at most one poll interval).
    func stop() {
        lock.withLock { running = false }
        done.wait()
    }

    private func loop() {
        var decoder = TerminalKeyDecoder()
        while lock.withLock({ running }) {
            guard let bytes = TerminalMode.read(descriptor: descriptor, timeoutMilliseconds: 30) else {
                control.quit()  // end of input: nothing more will come
                break
            }
            let keys = bytes.isEmpty && decoder.hasPending ? decoder.flush() : decoder.feed(bytes)
            for key in keys { handle(key) }
        }
        done.signal()
    }

    private func handle(_ key: TerminalKey) {
        let session = control.current
        switch key {
        case .right: session?.post(.swipeNext)
        case .left: session?.post(.swipePrevious)
        case .enter: session?.post(.activate(nil))
        case .character(let character): session?.post(.type(character))
        case .escape, .interrupt: control.quit()
        case .tab:
            if siblingProblem(lock.withLock { path }) == nil { control.toggle() }
        case .backspace, .ignored: break
        }
    }
}
