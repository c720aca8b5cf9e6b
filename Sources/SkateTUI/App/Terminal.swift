/// Input as a terminal backend delivers it.
enum TerminalInput: Hashable, Sendable {
    case key(Key)
    case resize(Size)
    /// SIGINT/SIGTERM (or the end of a scripted session): leave the loop and restore the terminal.
    case interrupted(signal: Int32)
}

/// The seam between the app loop and a real or fake terminal.
protocol Terminal: AnyObject {
    /// Current size in cells.
    var size: Size { get }
    /// Waits up to `timeout` seconds for input; nil when the time passed with none.
    func nextInput(timeout: Double) -> TerminalInput?
    /// Input that has already arrived, without waiting; nil when there is none. The loop takes a
    /// burst (a paste) this way before drawing once, instead of drawing after every key.
    func pendingInput() -> TerminalInput?
    /// Shows a frame: `changes` are the cells that differ from what is on screen;
    /// `fullRedraw` asks to clear and repaint (first frame, resize).
    func present(_ changes: [CellChange], frame: ScreenBuffer, fullRedraw: Bool)
    /// Rings the bell.
    func bell()
}

/// A terminal for tests and headless runs: plays a script of inputs and keeps every frame, and
/// a shadow screen built only from the changes it was sent (so tests can prove diffs suffice).
final class RecordingTerminal: Terminal {
    public private(set) var size: Size
    private var script: [TerminalInput?]
    /// Frames as presented.
    public private(set) var frames: [ScreenBuffer] = []
    /// Number of cells written per frame.
    public private(set) var writes: [Int] = []
    /// The screen rebuilt from changes alone.
    public private(set) var shadow: ScreenBuffer
    public private(set) var bells = 0

    /// - Parameter script: inputs in order; `nil` entries are timeouts (ticks). When the script
    ///   runs out the terminal reports an interrupt, so a loop can never spin forever.
    public init(size: Size, script: [TerminalInput?]) {
        self.size = size
        self.script = script.reversed()
        shadow = ScreenBuffer(size: size)
    }

    /// When true, consecutive keys of the script count as one burst (`pendingInput` hands them
    /// over); the default plays one input per loop turn.
    public var deliversBursts = false

    public func pendingInput() -> TerminalInput? {
        guard deliversBursts, case .key? = script.last ?? nil else { return nil }
        return script.popLast() ?? nil
    }

    public func nextInput(timeout: Double) -> TerminalInput? {
        guard let next = script.popLast() else { return .interrupted(signal: 0) }
        if case .resize(let s)? = next { size = s }
        return next
    }

    public func present(_ changes: [CellChange], frame: ScreenBuffer, fullRedraw: Bool) {
        if fullRedraw || shadow.size != frame.size { shadow = ScreenBuffer(size: frame.size) }
        for c in changes {
            shadow.set(x: c.x, y: c.y, c.cell)
            if DisplayWidth.of(c.cell.glyph) == 2 { shadow.set(x: c.x + 1, y: c.y, Cell("", style: c.cell.style)) }
        }
        frames.append(frame)
        writes.append(changes.count)
    }

    public func bell() { bells += 1 }
}
