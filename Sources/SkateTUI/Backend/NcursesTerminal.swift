// The only file that talks to ncurses.
import CNcursesw
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Why the terminal UI could not start.
public enum TUIError: Error, CustomStringConvertible, Equatable {
    /// stdin is not a terminal (a pipe or a file): a key loop would spin on end-of-file.
    case notATerminal
    /// ncurses could not set up the terminal named by `TERM`.
    case terminalUnusable(term: String)
    /// `TERM=dumb` (or unset): no cursor addressing, the map would be garbage.
    case dumbTerminal

    /// Refuses terminals that cannot draw a screen (`TERM` dumb or empty) before ncurses starts.
    public static func check(environment: [String: String]) throws {
        let term = (environment["TERM"] ?? "").trimmingWhitespace()
        if term.isEmpty || term == "dumb" { throw TUIError.dumbTerminal }
    }

    public var description: String {
        switch self {
        case .notATerminal:
            return "skateroute tui: standard input is not a terminal (run it in an interactive terminal, not through a pipe)"
        case .terminalUnusable(let term):
            return "skateroute tui: cannot use terminal type '\(term)' (check TERM, e.g. TERM=xterm-256color)"
        case .dumbTerminal:
            return "skateroute: this terminal (TERM=dumb) cannot draw the map; use `skateroute plan --from A --to B` for a text route"
        }
    }
}

/// The last stop signal caught (see `stopSignals`), 0 when none. Written from the signal
/// handler: a lock-free atomic store is async-signal-safe.
private let caughtSignal = Atomic<Int32>(0)

/// Signals that ask the app to stop; the loop sees them on its next wake-up and quits cleanly,
/// restoring the terminal. Besides the usual three: SIGQUIT (Ctrl-\ in cbreak mode), SIGUSR1/2
/// and SIGALRM (whose default action would kill the process with the screen still in the
/// alternate buffer and the cursor hidden) and SIGPIPE (the terminal's other end went away).
private let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE]
/// Signals that mean a crash: restore the terminal, then die with the default action.
private let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

/// An ncursesw screen: decodes keys, allocates colour pairs on demand, writes changed cells.
final class NcursesTerminal: Terminal {
    private var screen: OpaquePointer?
    private var outFile: UnsafeMutablePointer<FILE>?
    private var inFile: UnsafeMutablePointer<FILE>?
    private var closed = false
    private let hasColor: Bool
    private let colorCount: Int
    private let maxPairs: Int
    /// (fg, bg) xterm index → pair number.
    private var pairs: [Int32: Int16] = [:]
    private var nextPair: Int = 1
    private var savedHandlers: [(Int32, sighandler_t?)] = []
    /// Input wait granularity: `timeout` is re-armed per call in milliseconds.
    private var currentTimeoutMs: Int32 = -2

    /// Escape delay in milliseconds: long enough for arrow-key sequences over ssh, short enough
    /// that Esc answers at once (ncurses' default is a full second).
    public static let escapeDelayMs: Int32 = 25

    /// Opens the user's terminal (stdin/stdout) after checking stdin is a tty.
    /// - Throws: `TUIError` with a one-line reason.
    public static func openInteractive() throws -> NcursesTerminal {
        guard isatty(0) == 1 else { throw TUIError.notATerminal }
        // Own streams on duplicated descriptors: Swift 6 cannot touch the C `stdin`/`stdout` globals.
        guard let inp = fdopen(dup(0), "r"), let out = fdopen(dup(1), "w") else {
            throw TUIError.terminalUnusable(term: ProcessInfo.processInfo.environment["TERM"] ?? "")
        }
        return try NcursesTerminal(termName: nil, input: inp, output: out, ownsFiles: true, trapSignals: true)
    }

    /// Opens an invisible terminal of type `term` writing to /dev/null (tests, benchmarks).
    public static func openHeadless(term: String = "xterm-256color") throws -> NcursesTerminal {
        guard let out = fopen("/dev/null", "w"), let inp = fopen("/dev/null", "r") else { throw TUIError.terminalUnusable(term: term) }
        return try NcursesTerminal(termName: term, input: inp, output: out, ownsFiles: true, trapSignals: false)
    }

    private let ownsFiles: Bool

    private init(termName: String?, input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>, ownsFiles: Bool, trapSignals: Bool) throws {
        self.ownsFiles = ownsFiles
        inFile = input; outFile = output
        // Our handlers go in before newterm so ncurses leaves SIGINT/SIGTERM to us.
        _ = setlocale(LC_ALL, "")
        let scr: OpaquePointer? = termName.map { name in name.withCString { newterm($0, output, input) } } ?? newterm(nil, output, input)
        guard let scr else {
            if ownsFiles { fclose(input); fclose(output) }
            let term = termName ?? ProcessInfo.processInfo.environment["TERM"] ?? ""
            throw TUIError.terminalUnusable(term: term)
        }
        screen = scr
        _ = set_term(scr)
        if trapSignals {
            caughtSignal.store(0, ordering: .relaxed)
            for s in stopSignals { savedHandlers.append((s, signal(s, { sig in caughtSignal.store(sig, ordering: .relaxed) }))) }
            for s in fatalSignals {
                savedHandlers.append((s, signal(s, { sig in
                    endwin()
                    signal(sig, SIG_DFL)
                    raise(sig)
                })))
            }
        }
        _ = cbreak()
        _ = noecho()
        _ = nonl()
        _ = keypad(sr_stdscr(), true)
        _ = set_escdelay(Self.escapeDelayMs)
        _ = curs_set(0)
        _ = leaveok(sr_stdscr(), true)
        hasColor = has_colors()
        if hasColor {
            _ = start_color()
            _ = use_default_colors()
        }
        colorCount = hasColor ? Int(sr_colors()) : 0
        maxPairs = hasColor ? min(Int(sr_color_pairs()), Int(Int16.max)) : 0
    }

    deinit { close() }

    /// Restores the terminal (idempotent): leaves curses mode, frees the screen, puts the signal
    /// handlers back.
    public func close() {
        guard !closed else { return }
        closed = true
        if let s = screen { _ = set_term(s) }
        _ = curs_set(1)
        _ = endwin()
        if let s = screen { delscreen(s) }
        screen = nil
        for (sig, h) in savedHandlers { signal(sig, h) }
        savedHandlers = []
        if ownsFiles {
            if let f = inFile { fclose(f) }
            if let f = outFile { fclose(f) }
        }
        inFile = nil; outFile = nil
    }

    public var size: Size { Size(width: Int(sr_cols()), height: Int(sr_lines())) }

    public func nextInput(timeout: Double) -> TerminalInput? {
        if let s = pendingSignal() { return .interrupted(signal: s) }
        let ms = Int32(max(0, min(60_000, (timeout * 1000).rounded())))
        if ms != currentTimeoutMs { wtimeout(sr_stdscr(), ms); currentTimeoutMs = ms }
        var ch: wint_t = 0
        let r = wget_wch(sr_stdscr(), &ch)
        if let s = pendingSignal() { return .interrupted(signal: s) }
        if r == sr_err() { return nil }
        if r == KEY_CODE_YES {
            let code = Int32(bitPattern: ch)
            if code == sr_key_resize() { return .resize(size) }
            return .key(Self.functionKey(code))
        }
        if UInt32(ch) == 27 { return .key(readEscapeSequence()) }
        return .key(Self.charKey(UInt32(ch)))
    }

    public func pendingInput() -> TerminalInput? { nextInput(timeout: 0) }

    /// After a lone ESC: reads what follows within the escape delay and names it (see
    /// `EscapeSequence.read`: an overlong sequence is swallowed, not typed); a bare ESC stays `.escape`.
    private func readEscapeSequence() -> Key {
        let win = sr_stdscr()
        wtimeout(win, Self.escapeDelayMs)
        defer { wtimeout(win, currentTimeoutMs) }
        return EscapeSequence.read {
            var c: wint_t = 0
            let r = wget_wch(win, &c)
            if r == sr_err() || r == KEY_CODE_YES { return nil }
            return UInt32(c)
        }
    }

    private func pendingSignal() -> Int32? {
        let s = caughtSignal.load(ordering: .relaxed)
        return s != 0 ? s : nil
    }

    /// Names an ncurses function-key code.
    static func functionKey(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_F0...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return .unknown(code)
        }
    }

    /// Names a typed character (control codes included).
    static func charKey(_ v: UInt32) -> Key {
        switch v {
        case 27: return .escape
        case 10, 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(v + 96)!))
        case 0, 28...31: return .unknown(Int32(v))
        default:
            guard let s = Unicode.Scalar(v) else { return .unknown(Int32(bitPattern: v)) }
            return .char(Character(s))
        }
    }

    public func present(_ changes: [CellChange], frame: ScreenBuffer, fullRedraw: Bool) {
        let win = sr_stdscr()
        if fullRedraw {
            _ = werase(win)
            _ = clearok(win, true)
        }
        var wch = [wchar_t](repeating: 0, count: 6)
        for c in changes {
            let cell = c.cell
            var n = 0
            for s in cell.glyph.unicodeScalars where n < 5 {
                wch[n] = wchar_t(bitPattern: s.value); n += 1
            }
            if n == 0 { wch[0] = 32; n = 1 }
            wch[n] = 0
            let pair = pairNumber(fg: cell.fg, bg: cell.bg)
            _ = sr_put_cell(Int32(c.y), Int32(c.x), wch, attributes(cell.attrs), pair)
        }
        _ = wnoutrefresh(win)
        _ = doupdate()
    }

    public func bell() { _ = beep() }

    private func attributes(_ a: CellAttributes) -> attr_t {
        var r = attr_t(SR_A_NORMAL)
        if a.contains(.bold) { r |= attr_t(SR_A_BOLD) }
        if a.contains(.dim) { r |= attr_t(SR_A_DIM) }
        if a.contains(.reverse) { r |= attr_t(SR_A_REVERSE) }
        if a.contains(.underline) { r |= attr_t(SR_A_UNDERLINE) }
        return r
    }

    /// The terminal's index for a colour: xterm-256 when it has 256 colours, else ANSI-8; −1 default.
    private func index(_ c: TermColor) -> Int {
        if colorCount >= 256 { return c.nearest256 }
        if colorCount >= 8 { return c.nearest8 }
        return -1
    }

    /// The colour pair for fg/bg, allocated on first use; pair 0 (defaults) when colours are
    /// off or the terminal has run out of pairs.
    private func pairNumber(fg: TermColor, bg: TermColor) -> Int16 {
        guard hasColor else { return 0 }
        let f = index(fg), b = index(bg)
        if f < 0 && b < 0 { return 0 }
        let key = Int32(f + 1) << 16 | Int32(b + 1)
        if let p = pairs[key] { return p }
        guard nextPair < maxPairs else { return 0 }
        let p = Int16(nextPair)
        nextPair += 1
        _ = init_pair(p, Int16(f), Int16(b))
        pairs[key] = p
        return p
    }

    /// The glyph ncurses holds at a cell (tests read the screen back).
    public func glyph(x: Int, y: Int) -> String {
        var cc = cchar_t()
        guard mvwin_wch(sr_stdscr(), Int32(y), Int32(x), &cc) != sr_err() else { return "" }
        var buf = [wchar_t](repeating: 0, count: 8)
        var attrs: attr_t = 0
        var pair: Int16 = 0
        _ = getcchar(&cc, &buf, &attrs, &pair, nil)
        return String(String.UnicodeScalarView(buf.prefix { $0 != 0 }.compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }))
    }

    /// Number of colour pairs allocated so far.
    public var pairsAllocated: Int { pairs.count }
}
