import EarshotAudio
import EarshotSystem
import Foundation

/// Ctrl-C or SIGTERM during a command that writes files: every hidden temporary is removed before the process
/// exits (130 for SIGINT, 143 for SIGTERM), so an interrupted render leaves neither a partial file nor litter.
/// Commands with their own handling (`listen`: silence the device, restore the terminal) opt out.
enum InterruptCleanup {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers once per process.
    static func install() {
        guard sources.isEmpty else { return }
        sources = [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { number, status in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // Waits for a render's files to finish moving into place together, so the signal leaves the whole
            // old set or the whole new one, then removes every hidden temporary and the private espeak-ng data
            // folder (the process ends with _exit, which skips the atexit handler that removes it).
            source.setEventHandler {
                PendingTemporaries.removeAllAndExit(status: status) {
                    EngineWarmUp.finish()  // its data folder, when it is making one, is then there to remove
                    EspeakSynthesizer.removePrivateDataFolders()
                }
            }
            source.resume()
            return source
        }
    }

    /// Waits for the process to end when an interrupt handler has started its clean-up (it ends the process
    /// with the signal's status); returns at once otherwise.
    static func yieldToARunningInterrupt() {
        guard PendingTemporaries.isClosed else { return }
        while true { sleep(1) }
    }
}
