/// How a loop ended.
public enum TUIExit: Hashable, Sendable {
    /// The user quit.
    case quit
    /// A signal (SIGINT 2, SIGTERM 15) or the end of a script (0) stopped it.
    case interrupted(signal: Int32)
    /// The rider chose another map (its file); `runTUI` opens it and runs again.
    case switchMap(path: String)
}

/// Runs an app on a terminal: render, present the diff, wait for input or a tick, update; redraws
/// only when the model changed, so an idle map costs nothing but the tick.
enum AppLoop {
    /// Seconds between ticks when no key arrives (toasts expire, rides advance).
    public static let defaultTickInterval: Double = 0.25
    /// Seconds between looks for work finished off the UI thread (a plan): 20 ms is under a frame.
    public static let workPollInterval: Double = 0.02
    /// Keys taken from one burst (a paste) before a frame is drawn: a frame costs ~10–100 ms,
    /// a key in a field microseconds, so a 4,000-character paste draws ~16 frames, not 4,000.
    public static let maxBurst = 256

    /// - Parameters:
    ///   - now: a monotonic clock in seconds (injected so tests need no wall clock).
    ///   - maxIterations: a guard for tests; the live app passes nil.
    ///   - onEnd: sees the last model when the loop ends (the live app remembers the map view).
    @discardableResult
    public static func run(app: TUIApp, terminal: Terminal, tickInterval: Double? = nil,
                           now: () -> Double, maxIterations: Int? = nil, initialCommands: [AppCommand] = [],
                           onEnd: (AppModel) -> Void = { _ in }) -> TUIExit {
        var last: AppModel?
        defer { if let m = last { onEnd(m) } }
        var model = app.initialModel(size: terminal.size)
        last = model
        defer { last = model }
        // Commands to run before the first frame (e.g. start a ride given on the command line).
        for c in initialCommands {
            for e in app.perform(c) { model = app.step(model, e).0 }
        }
        var shown: ScreenBuffer?
        var dirty = true
        var lastTick = now()
        var iterations = 0
        while true {
            if dirty {
                let frame = app.render(model)
                if let old = shown, old.size == frame.size {
                    terminal.present(ScreenBuffer.diff(old, frame), frame: frame, fullRedraw: false)
                } else {
                    terminal.present(frame.allChanges(), frame: frame, fullRedraw: true)
                }
                shown = frame
                dirty = false
            }
            if model.quitting { return model.switchTo.map { .switchMap(path: $0) } ?? .quit }
            iterations += 1
            if let cap = maxIterations, iterations > cap { return .interrupted(signal: 0) }

            // While a plan runs off the UI thread, look for its answer often (keys still come at once).
            let interval = app.isWorking ? min(Self.workPollInterval, tickInterval ?? app.tickInterval(model)) : (tickInterval ?? app.tickInterval(model))
            let waitFor = max(0.001, interval - (now() - lastTick))
            let input = terminal.nextInput(timeout: waitFor)
            var events: [AppEvent] = []
            switch input {
            case .key(let k)?:
                events.append(.key(k))
                // Keys already waiting join this turn (a paste is drawn once).
                while events.count < Self.maxBurst, let more = terminal.pendingInput() {
                    if case .key(let k2) = more { events.append(.key(k2)); continue }
                    if case .interrupted(let sig) = more { return .interrupted(signal: sig) }
                    if case .resize(let s) = more { events.append(.resize(s)); shown = nil }
                }
            case .resize(let s)?:
                events.append(.resize(s))
                shown = nil  // repaint everything after a resize
            case .interrupted(let sig)?: return .interrupted(signal: sig)
            case nil: break
            }
            events += app.finishedWork()
            let t = now()
            if input == nil || t - lastTick >= interval {
                events.append(.tick(max(0, t - lastTick)))
                lastTick = t
            }
            for e in events {
                // `step` runs update and the I/O commands it asks for; the rest are the loop's.
                let (m, commands) = app.step(model, e)
                if m != model { dirty = true; model = m }
                for c in commands {
                    switch c {
                    case .bell: terminal.bell()
                    case .quit: model.quitting = true; dirty = true
                    case .switchMap(let p): model.switchTo = p; model.quitting = true; dirty = true
                    default: break
                    }
                }
            }
            if shown == nil { dirty = true }
        }
    }
}
