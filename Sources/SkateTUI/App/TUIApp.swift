import SkateCore

/// The app as three pure functions: an initial model, `update(model, event) -> (model, commands)`
/// and `render(model) -> ScreenBuffer`. No terminal, no clock: the loop supplies both.
public struct TUIApp: Sendable {
    public let context: TUIContext
    /// A route shown on the browse screen from the start (nil: the bare map).
    public let initialOverlay: RouteOverlay?

    public init(context: TUIContext, initialOverlay: RouteOverlay? = nil) {
        self.context = context
        self.initialOverlay = initialOverlay
    }

    public init(map: SkateMap, theme: Theme, initialOverlay: RouteOverlay? = nil) {
        self.init(context: TUIContext(map: map, theme: theme), initialOverlay: initialOverlay)
    }

    /// The model at start-up: the browse screen fitted to the overlay, or to the map.
    public func initialModel(size: Size) -> AppModel {
        var browse = MapBrowseScreen.initialState(context: context, size: size)
        if let o = initialOverlay {
            browse.overlay = o
            browse = MapBrowseScreen.apply(.fit, to: browse, context: context)
        }
        return AppModel(screen: .browse, size: size, browse: browse)
    }

    /// Applies one event. Unknown keys change nothing.
    public func update(_ model: AppModel, _ event: AppEvent) -> (AppModel, [AppCommand]) {
        var m = model
        switch event {
        case .resize(let s):
            m.size = s
            m.browse = MapBrowseScreen.resized(m.browse, size: s)
            return (m, [])
        case .tick(let dt):
            if var t = m.toast {
                t.remaining -= dt
                m.toast = t.remaining > 0 ? t : nil
            }
            return (m, [])
        case .key(let key):
            guard let action = context.keyMap.action(for: key, on: m.screen) else { return (m, []) }
            if action == .quit {
                m.quitting = true
                return (m, [.quit])
            }
            // Below the minimum size only quitting works.
            if TooSmallScreen.isTooSmall(m.size) { return (m, []) }
            switch action {
            case .toggleHelp:
                m.helpVisible.toggle()
                return (m, [])
            case .closeOverlay:
                if m.helpVisible { m.helpVisible = false } else { m.toast = nil }
                return (m, [])
            default:
                if m.helpVisible { return (m, []) }  // the help overlay swallows other keys
            }
            switch m.screen {
            case .browse:
                m.browse = MapBrowseScreen.apply(action, to: m.browse, context: context)
            }
            return (m, [])
        }
    }

    /// Draws the model at its size.
    public func render(_ model: AppModel) -> ScreenBuffer {
        let size = model.size
        if TooSmallScreen.isTooSmall(size) { return TooSmallScreen.render(size: size, theme: context.theme) }
        var buffer = ScreenBuffer(size: size)
        let theme = context.theme
        switch model.screen {
        case .browse:
            MapBrowseScreen.render(model.browse, context: context, into: &buffer)
        }
        let body = Rect(size: size).splitTop(1).rest.splitBottom(1).rest
        if let b = model.banner { CueBannerWidget.render(b, theme: theme, into: &buffer, area: body) }
        if let t = model.toast { ToastWidget.render(t, theme: theme, into: &buffer, area: body) }
        if model.helpVisible {
            HelpOverlayWidget.render(keyMap: context.keyMap, screen: model.screen, theme: theme, into: &buffer, area: body)
        }
        return buffer
    }
}
