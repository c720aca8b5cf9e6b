import SkateCore

/// The app as pure functions — an initial model, `update(model, event) -> (model, commands)`,
/// `render(model) -> ScreenBuffer` — plus `perform(command) -> events`, the one place that does
/// I/O (store writes, building and advancing rides). The loop supplies the terminal and the clock.
struct TUIApp: Sendable {
    public let context: TUIContext
    public let services: TUIServices
    /// A route shown on the browse screen from the start (nil: start on the plan screen).
    public let initialOverlay: RouteOverlay?
    /// Speed factor of new rides.
    public let rideSpeed: Double

    public init(context: TUIContext, services: TUIServices? = nil, initialOverlay: RouteOverlay? = nil, rideSpeed: Double = RideScreen.defaultSimSpeed) {
        let services = services ?? TUIServices(map: context.map)
        // Keys that need a store (surface ratings) exist only when there is one.
        self.context = context.with(keyMap: context.keyMap.available(storeOpen: services.store != nil))
            .with(skateFrom: services.planner.table, shown: false)
        self.services = services
        self.initialOverlay = initialOverlay
        self.rideSpeed = rideSpeed
    }

    public init(map: SkateMap, theme: Theme, services: TUIServices? = nil, initialOverlay: RouteOverlay? = nil, rideSpeed: Double = RideScreen.defaultSimSpeed) {
        self.init(context: TUIContext(map: map, theme: theme), services: services, initialOverlay: initialOverlay, rideSpeed: rideSpeed)
    }

    /// Seconds between ticks: 10 Hz while a ride runs, slower when nothing moves.
    public func tickInterval(_ m: AppModel) -> Double {
        if m.screen == .ride, let r = m.ride, r.isRunning { return Self.rideTick }
        // A debounced search waits: tick when it is due.
        if let due = m.plan.searchDue { return max(AppLoop.workPollInterval, min(AppLoop.defaultTickInterval, due)) }
        return AppLoop.defaultTickInterval
    }
    /// Seconds the opening notice (a failed map switch) stays: longer than a toast, it explains a surprise.
    public static let noticeSeconds: Double = 8
    /// Tick while riding: the engines publish at 10 Hz.
    public static let rideTick: Double = 0.1

    /// The model at start-up: the plan screen, or the browse screen fitted to an overlay.
    public func initialModel(size: Size) -> AppModel {
        var browse = MapBrowseScreen.initialState(context: context, size: size)
        var m = AppModel(screen: .plan, size: size, browse: browse)
        m.plan.map = PlanScreen.mapState(m.plan, context: context, size: size)
        // Open on home, else the last view, else the whole map when small, else its densest area (issue 27).
        let home = services.rider.savedPlaces().first { $0.category == "home" && context.map.bbox.contains($0.at) }?.at
        let planArea = PlanScreen.mapArea(size)
        // One search for the densest area serves both maps (a pass over a region's nodes).
        let box = context.map.bbox
        let opensDense = home == nil && services.lastView == nil && !box.isEmpty && OpeningView.longerSide(box) > OpeningView.wholeMapMaxMetres
        let densest: Coordinate?? = opensDense ? .some(OpeningView.densestArea(context.map)) : nil
        m.plan.map?.viewport = OpeningView.viewport(map: context.map, size: Size(width: planArea.width, height: planArea.height), home: home,
                                                    last: services.lastView, densest: densest)
        let browseArea = MapBrowseScreen.mapArea(size)
        browse.viewport = OpeningView.viewport(map: context.map, size: Size(width: browseArea.width, height: browseArea.height), home: home,
                                               last: services.lastView, densest: densest)
        m.browse = browse
        RiderSearch.fillRecents(&m.plan, services: services)
        if let n = services.startNotice { m.toast = Toast(text: n, kind: .error, remaining: Self.noticeSeconds) }
        if let o = initialOverlay {
            browse.overlay = o
            browse = MapBrowseScreen.apply(.fit, to: browse, context: context)
            m.browse = browse
            m.screen = .browse
        }
        return m
    }

    // MARK: Update

    /// Applies one event. Unknown keys change nothing.
    public func update(_ model: AppModel, _ event: AppEvent) -> (AppModel, [AppCommand]) {
        var (m, commands) = updateModel(model, event)
        // A new plan query becomes a command: the planner runs outside `update`.
        if let q = m.plan.query, m.plan.planning, q.id != m.plan.sentQueryID {
            m.plan.sentQueryID = q.id
            commands.append(.plan(q))
        }
        // A place search whose debounce ran out becomes a command too.
        if let q = m.plan.searchQuery, let due = m.plan.searchDue, due <= 0, q.id != m.plan.sentSearchID {
            m.plan.sentSearchID = q.id
            m.plan.searchDue = nil
            commands.append(.searchPlaces(q))
        }
        return (m, commands)
    }

    func updateModel(_ model: AppModel, _ event: AppEvent) -> (AppModel, [AppCommand]) {
        var m = model
        switch event {
        case .resize(let s):
            m.size = s
            m.browse = MapBrowseScreen.resized(m.browse, size: s)
            m.plan.map = PlanScreen.mapState(m.plan, context: context, size: s)
            if let p = m.preview { m.preview = PreviewScreen.resized(p, size: s) }
            if let r = m.ride { m.ride = RideScreen.resized(r, size: s) }
            return (m, [])
        case .tick(let dt):
            if var t = m.toast {
                t.remaining -= dt
                m.toast = t.remaining > 0 ? t : nil
            }
            if m.banner != nil {
                m.bannerRemaining -= dt
                if m.bannerRemaining <= 0 { m.banner = nil }
            }
            if let due = m.plan.searchDue { m.plan.searchDue = due - dt }
            if var u = m.lastReport {
                u.remaining -= dt
                m.lastReport = u.remaining > 0 ? u : nil
            }
            if m.screen == .ride, let r = m.ride {
                let (r2, to) = RideScreen.tick(r, dt: dt)
                m.ride = r2
                if let t = to { return (m, [.advanceRide(to: t)]) }
            }
            return (m, [])
        case .reportDone(let r):
            m.toast = Toast(text: r.text, kind: r.isError ? .error : .info)
            if r.undoableID != nil, m.screen == .ride { m.ride?.stats.hazardsFiled += 1 }
            if r.undone != nil, m.screen == .ride, let n = m.ride?.stats.hazardsFiled, n > 0 { m.ride?.stats.hazardsFiled = n - 1 }
            if let id = r.undoableID {
                m.lastReport = UndoableReport(id: id, remaining: QuickReports.undoWindow, reporter: r.reporter)
                if let p = r.position { m.sessionHazards[id] = p }
            }
            if let id = r.undone {
                m.sessionHazards[id] = nil
                m.lastReport = nil
            }
            return (m, [])
        case .ridesListed(let list):
            if var p = m.picker { p.rides = list; p.selected = 0; m.picker = p }
            return (m, [])
        case .planned(let answer):
            m.plan = PlanScreen.take(answer, into: m.plan, services: services)
            return (m, [])
        case .searched(let answer):
            m.plan = PlanScreen.take(answer, into: m.plan, services: services)
            return (m, [])
        case .mapsListed(let rows):
            if m.mapList != nil { m.mapList = MapList.listed(rows, currentPath: services.mapPath) }
            return (m, [])
        case .downhillsFound(let a):
            if m.downhillList != nil { m.downhillList?.runs = a.runs; m.downhillList?.selected = 0 }
            return (m, [])
        case .savedListed(let rows):
            if m.savedList != nil { m.savedList?.rows = rows; m.savedList?.selected = 0 }
            return (m, [])
        case .rideStarted(let start):
            m.picker = nil
            m.ride = RideScreen.make(start, services: services, context: context, size: m.size, simSpeed: rideSpeed,
                                     returnTo: m.screen == .ride ? .plan : m.screen)
            // The destination's name at B when the ride follows the route the rider chose.
            if let plan = start.plan {
                m.ride?.destinationName = plan == m.preview?.plan ? m.preview?.to : (plan == m.plan.selectedPlan ? m.plan.destination.chosen?.name : nil)
            }
            m.screen = .ride
            m.pending = nil
            if !start.warnings.isEmpty { m.toast = Toast(text: start.warnings[0], kind: .info) }
            return (m, [.advanceRide(to: 0)])
        case .rideFailed(let why):
            m.picker = nil
            m.toast = Toast(text: "ride not started: " + why, kind: .error)
            return (m, [])
        case .rideAdvanced(let u):
            guard var r = m.ride else { return (m, []) }
            r = RideScreen.advanced(r, u, services: services)
            if let p = u.reroute {
                m.toast = Toast(text: "Rerouted: " + Format.distance(p.plan.distance) + ", " + Format.duration(p.plan.duration) + " from here", kind: .info)
            }
            var cmds: [AppCommand] = []
            for c in u.cues {
                m.banner = CueBanner(text: c.text, kind: c.kind, step: c.step, at: c.at, phrase: c.phrase)
                m.bannerRemaining = RideScreen.bannerSeconds
                if c.urgent && m.bellOn && !cmds.contains(.bell) { cmds.append(.bell) }
            }
            // An impact felt rings too (issue 28); the HUD flashes it, the map marks it.
            if RideScreen.ringsBell(u) && m.bellOn && !cmds.contains(.bell) { cmds.append(.bell) }
            // The banner counts down with the rider and goes once its place is passed or NEXT
            // moved on to another maneuver.
            if let b = m.banner, r.plan != nil {
                m.banner = b.live(along: r.frame.distanceAlong, nextStep: RideScreen.nextManeuver(r)?.index)
            }
            if r.frame.finished && !r.announcedEnd {
                // The arrival panel takes over; no banner left over the map.
                r.announcedEnd = true
                m.banner = nil
            }
            m.ride = r
            return (m, cmds)
        case .key(let key):
            return updateKey(m, key)
        }
    }

    func updateKey(_ model: AppModel, _ key: Key) -> (AppModel, [AppCommand]) {
        var m = model
        // The second key of a report.
        if let p = m.pending {
            m.pending = nil
            guard let pos = reportPosition(m) else {
                m.toast = Toast(text: "no position to report at", kind: .error)
                return (m, [])
            }
            if let c = QuickReports.command(for: key, pending: p, at: pos, simulated: m.screen == .ride && m.ride != nil) { return (m, [c]) }
            m.toast = Toast(text: "report cancelled", kind: .info)
            return (m, [])
        }
        let ctx = m.keyContext
        guard let action = context.keyMap.action(for: key, on: ctx) else {
            if ctx == .routeName, let r = m.routeName { m.routeName = RouteNamePrompt.type(key, into: r); return (m, []) }
            // Any key but "yes" keeps riding.
            if ctx == .confirmLeave { m.leaving = nil; return (m, []) }
            // Typing in a plan field (only while it is edited).
            if ctx == .planInput, !TooSmallScreen.isTooSmall(m.size) {
                if PlanScreen.isEditingKey(key) { m.plan = PlanScreen.type(key, into: m.plan, services: services) }
            }
            return (m, [])
        }
        let riding = m.screen == .ride && m.ride.map { !$0.frame.finished } == true
        if action == .quit {
            // `q` during a ride asks first (Ctrl-C, bound only where letters are text, does not).
            if riding, key == .char("q"), ctx != .confirmLeave {
                m.helpVisible = false
                m.leaving = .quit
                return (m, [])
            }
            m.quitting = true
            return (m, [.stopRide, .quit])
        }
        // Below the minimum size only quitting works.
        if TooSmallScreen.isTooSmall(m.size) { return (m, []) }
        if action == .toggleHelp {
            m.helpVisible.toggle()
            m.helpScroll = 0
            return (m, [])
        }
        if ctx == .help {
            let page = max(1, HelpOverlayWidget.visibleRows(ScreenLayout.body(m.size)) - 1)
            switch action {
            case .closeOverlay: m.helpVisible = false
            case .helpUp: m.helpScroll = max(0, m.helpScroll - 1)
            case .helpDown: m.helpScroll += 1
            case .helpPageUp: m.helpScroll = max(0, m.helpScroll - page)
            case .helpPageDown: m.helpScroll += page
            default: break
            }
            // (The drawing clamps the scroll to the last page.)
            m.helpScroll = min(m.helpScroll, HelpOverlayWidget.maxScroll(keyMap: context.keyMap, screen: helpScreen(m), theme: context.theme, area: ScreenLayout.body(m.size)))
            return (m, [])
        }
        if ctx == .confirmLeave {
            let intent = m.leaving
            m.leaving = nil
            guard action == .yes, let r = m.ride else { return (m, []) }
            if intent == .quit {
                m.quitting = true
                return (m, [.stopRide, .quit])
            }
            m.screen = m.preview != nil ? .preview : r.returnTo
            m.ride = nil
            m.banner = nil
            return (m, [.stopRide])
        }
        switch action {
        case .hazardPrefix:
            m.pending = .hazard
            return (m, [])
        case .ratePrefix:
            m.pending = .rate
            return (m, [])
        case .undoReport:
            if let u = m.lastReport, u.remaining > 0 { return (m, [.undoHazard(id: u.id, reporter: u.reporter)]) }
            m.toast = Toast(text: "nothing to undo (hazards can be undone for \(Int(QuickReports.undoWindow)) s)", kind: .info)
            return (m, [])
        case .openRidePicker:
            m.picker = RidePickerState()
            return (m, [.listRides])
        case .openSaved:
            m.savedList = SavedListState()
            return (m, [.listSaved])
        case .openMaps:
            m.mapList = MapListState()
            return (m, [.listMaps])
        case .cruiseLoop:
            m.plan = ExploreEntries.cruise(m.plan, services: services)
            return (m, [])
        case .openDownhills:
            guard let (c, name) = ExploreEntries.downhillCenter(m.plan, map: context.map) else { return (m, []) }
            m.downhillList = DownhillListState(placeName: name)
            return (m, [.findDownhills(c, placeName: name)])
        case .openSpots:
            let start = m.preview?.plan.plan.geometry.first.map { ChosenPlace(name: m.preview?.from ?? "route start", at: $0) }
            if let from = m.screen == .preview ? (m.plan.origin.chosen ?? start) : SpotList.origin(plan: m.plan, map: context.map) {
                m.spotList = SpotList.make(services: services, from: from)
            }
            return (m, [])
        case .saveRoute:
            if let p = m.preview { m.routeName = RouteNamePrompt.make(plan: p.plan, from: p.from, to: p.to) }
            return (m, [])
        case .toggleSkateLayer:
            m.skateLayer.toggle()
            // The legend follows the layer: turning it on shows what the colours mean.
            if m.skateLayer {
                m.browse.showLegend = true
                m.plan.map?.showLegend = true
                m.preview?.map.showLegend = true
            }
            m.toast = Toast(text: m.skateLayer ? "surface layer on: streets by class, steep ones dashed (L legend)" : "surface layer off", kind: .info)
            return (m, [])
        case .cyclePalette:
            let s = (m.scheme ?? context.theme.scheme).next
            m.scheme = s
            m.toast = Toast(text: "colours: " + (s == .colorBlind ? "colour-blind safe (Okabe-Ito)" : s.rawValue), kind: .info)
            return (m, [])
        default: break
        }
        if ctx == .routeName, let r = m.routeName {
            m.routeName = nil
            if action == .confirm { return (m, [.saveRoute(r)]) }
            m.toast = Toast(text: "route not saved", kind: .info)
            return (m, [])
        }
        if ctx == .downhillList, let list = m.downhillList {
            return listKey(action, \.downhillList, list, in: m, apply: ExploreEntries.apply(_:to:)) { list, m in
                guard let runs = list.runs, runs.indices.contains(list.selected) else { return [] }
                m.showPlan(ExploreEntries.toRun(runs[list.selected], state: m.plan, services: services))
                return []
            }
        }
        if ctx == .mapList, let list = m.mapList {
            return listKey(action, \.mapList, list, in: m, apply: { $1.moved(by: $0) }) { list, _ in
                guard let row = list.chosen, row.path != services.mapPath else { return [] }
                return [.stopRide, .switchMap(row.path)]
            }
        }
        if ctx == .savedList, let list = m.savedList {
            return listKey(action, \.savedList, list, in: m, apply: { $1.moved(by: $0) }) { list, m in
                if let p = SavedList.open(list, plan: m.plan, services: services) { m.showPlan(p) }
                return []
            }
        }
        if ctx == .spotList, let list = m.spotList, action == .setOriginAtCursor {
            // The highlighted spot becomes From, by its name.
            m.spotList = nil
            guard list.rows.indices.contains(list.selected) else { return (m, []) }
            let spot = list.rows[list.selected]
            var p = m.plan
            p.origin = .picked(ChosenPlace(name: spot.name, at: spot.at))
            p.editing = false
            p.routes = []
            if p.destination.chosen != nil { p = PlanScreen.planNow(p, services: services) }
            else { p.focus = .destination; p = PlanScreen.showSelected(p, services: services, fit: false) }
            m.showPlan(p)
            return (m, [])
        }
        if ctx == .spotList, let list = m.spotList {
            return listKey(action, \.spotList, list, in: m, apply: SpotList.apply(_:to:)) { list, m in
                guard let p = SpotList.goThere(list, plan: m.plan, services: services) else { return [] }
                m.showPlan(p)
                return p.destination.chosen.map { [.recordDestination($0)] } ?? []
            }
        }
        if ctx == .ridePicker, var p = m.picker {
            switch action {
            case .back, .closeOverlay: m.picker = nil
            case .confirm:
                if let rides = p.rides, rides.indices.contains(p.selected) {
                    let plan = m.preview?.plan ?? m.plan.selectedPlan
                    return (m, [.startRide(.replay(path: rides[p.selected].path, plan: plan))])
                }
            default:
                p = RidePicker.apply(action, to: p)
                m.picker = p
            }
            return (m, [])
        }
        switch m.screen {
        case .browse:
            if action == .back { m.screen = .plan; return (m, []) }
            m.browse = MapBrowseScreen.apply(action, to: m.browse, context: context)
        case .plan:
            if action == .confirm, !m.plan.routes.isEmpty, m.plan.focus == .routes || m.plan.focus == .map, let ref = m.plan.selectedPlan {
                m.preview = PreviewScreen.make(plan: ref, routes: m.plan.routes, from: m.plan.origin.chosen?.name ?? "start",
                                               to: m.plan.destination.chosen?.name ?? "end", context: context, services: services, size: m.size)
                m.screen = .preview
                return (m, [])
            }
            let before = m.plan.destination.chosen
            m.plan = PlanScreen.apply(action, to: m.plan, context: context, services: services, size: m.size)
            // A newly chosen destination becomes a recent (not a swap of the ends).
            if action != .swapEnds, let d = m.plan.destination.chosen, d != before { return (m, [.recordDestination(d)]) }
        case .planInput, .ridePicker, .spotList, .routeName, .help, .confirmLeave, .savedList, .mapList, .downhillList:
            break
        case .arrival:
            break
        case .preview:
            guard let p = m.preview else { m.screen = .plan; return (m, []) }
            switch action {
            case .back:
                m.screen = .plan
                // The route chosen on the preview stays chosen in the list.
                if m.plan.routes.indices.contains(p.selected), m.plan.selectedRoute != p.selected {
                    m.plan.selectedRoute = p.selected
                    m.plan = PlanScreen.showSelected(m.plan, services: services, fit: false)
                }
            case .startRide: return (m, [.startRide(.synthesize(p.plan))])
            default: m.preview = PreviewScreen.apply(action, to: p, context: context, size: m.size, services: services)
            }
        case .ride:
            guard let r = m.ride else { m.screen = .plan; return (m, []) }
            switch action {
            case .confirm where r.frame.finished:
                // Arrival: Enter goes back to the plan screen (routes kept).
                m.screen = .plan
                m.ride = nil
                m.preview = nil
                m.banner = nil
                return (m, [.stopRide])
            case .back where !r.frame.finished:
                // Leaving a ride asks first (issue 34 item 6).
                m.leaving = .back
                return (m, [])
            case .back:
                m.screen = m.preview != nil ? .preview : r.returnTo
                m.ride = nil
                m.banner = nil
                return (m, [.stopRide])
            case .yes, .dismissImpacts:
                let (r2, cmd) = RideScreen.answerImpacts(r, confirm: action == .yes)
                m.ride = r2
                return (m, cmd.map { [$0] } ?? [])
            case .toggleBell:
                m.bellOn.toggle()
                m.toast = Toast(text: m.bellOn ? "cue bell on" : "cue bell muted", kind: .info)
                return (m, [])
            default:
                let (r2, to) = RideScreen.apply(action, to: r)
                m.ride = r2
                if let t = to { return (m, [.advanceRide(to: t)]) }
            }
        }
        return (m, [])
    }

    /// The context the help box lists: the screen (or overlay) under it.
    func helpScreen(_ m: AppModel) -> ScreenID {
        var under = m
        under.helpVisible = false
        return under.keyContext
    }

    /// Where a report files: the rider on the ride screen, the map cursor elsewhere.
    func reportPosition(_ m: AppModel) -> Coordinate? {
        switch m.screen {
        case .ride: return m.ride?.frame.position
        case .preview: return m.preview?.map.viewport.center
        case .plan, .planInput: return m.plan.map?.viewport.center
        case .browse, .ridePicker, .spotList, .routeName, .help, .confirmLeave, .savedList, .mapList, .downhillList:
            return m.browse.viewport.center
        case .arrival: return m.ride?.frame.position
        }
    }

    // MARK: Effects

    /// Carries out a command that needs I/O and returns the events it produced. Called by the
    /// loop (and by tests that want the effects); `update` never does I/O itself.
    public func perform(_ c: AppCommand) -> [AppEvent] {
        switch c {
        case .quit, .bell: return []
        case .fileHazard(let kind, let at, let simulated):
            return [.reportDone(QuickReports.fileHazard(kind, at: at, simulated: simulated, services: services))]
        case .rateSurface(_, _, true):
            return [.reportDone(ReportResult(text: "rating not saved: this is a replay/simulation, rate on a real ride or with skateroute rate", isError: true))]
        case .rateSurface(let rating, let at, _):
            return [.reportDone(QuickReports.rate(rating, at: at, services: services, map: context.map))]
        case .undoHazard(let id, let reporter):
            return [.reportDone(QuickReports.undo(id: id, reporter: reporter, services: services))]
        case .listRides:
            return [.ridesListed(RideInputs.listRides(in: services.ridesDirectory))]
        case .startRide(let req):
            let e = RideLauncher.start(req, services: services, mapName: context.mapName)
            if case .rideStarted(let s) = e { services.alerts = RideAlerts.engine(plan: s.plan?.plan, services: services) }
            return [e]
        case .recordDestination(let d):
            services.rider.recordDestination(d, now: services.now())
            return []
        case .saveRoute(let r):
            return [.reportDone(RouteNamePrompt.save(r, services: services))]
        case .listSaved:
            return [.savedListed(SavedList.read(services: services))]
        case .listMaps:
            return [.mapsListed(services.maps?.list() ?? [])]
        case .findDownhills(let c, let name):
            return [.downhillsFound(ExploreEntries.findDownhills(center: c, placeName: name, planner: services.planner))]
        case .switchMap:
            return []
        case .plan(let q):
            if let w = services.planWorker {
                w.submit(q)
                return []
            }
            return [.planned(PlanScreen.answer(q, planner: services.planner))]
        case .searchPlaces(let q):
            if let w = services.searchWorker {
                w.submit(q)
                return []
            }
            return [.searched(PlanScreen.answer(q, search: services.search))]
        case .advanceRide(let t):
            guard let f = services.feed else { return [] }
            let r = f.advance(to: t)
            var reroute: PlanRef?
            if let p = r.rerouted {
                services.planCounter += 1
                reroute = PlanRef(id: -services.planCounter, plan: p)
            }
            return [.rideAdvanced(RideUpdate(frame: r.frame, cues: r.cues + RideAlerts.cues(services, frame: r.frame), reroute: reroute))]
        case .answerImpacts(let rideId, let confirm):
            return [.reportDone(ImpactVerdict.apply(rideId: rideId, confirm: confirm, services: services))]
        case .stopRide:
            services.feed?.stop()
            services.feed = nil
            services.alerts = nil
            services.weekProgress = services.rider.weekProgress(now: services.now())
            return []
        }
    }

    /// Events that finished outside the loop since the last call (plans answered off the UI thread).
    public func finishedWork() -> [AppEvent] { (services.planWorker?.takeAnswers() ?? []) + (services.searchWorker?.takeAnswers() ?? []) }

    /// Whether work is running outside the loop (the loop then polls it often).
    public var isWorking: Bool { (services.planWorker?.busy ?? false) || (services.searchWorker?.busy ?? false) }

    /// Runs `update` and carries out its commands until no more events come (what the loop
    /// does between two frames). Returns the model and the commands the loop itself handles.
    public func step(_ model: AppModel, _ event: AppEvent) -> (AppModel, [AppCommand]) {
        var queue = [event]
        var m = model
        var loopCommands: [AppCommand] = []
        var guardCount = 0
        while !queue.isEmpty, guardCount < 64 {
            guardCount += 1
            let e = queue.removeFirst()
            let (n, cmds) = update(m, e)
            m = n
            for c in cmds {
                switch c {
                case .quit, .bell, .switchMap: loopCommands.append(c)
                default: queue += perform(c)
                }
            }
        }
        return (m, loopCommands)
    }

    // MARK: Render

    /// Draws the model at its size.
    public func render(_ model: AppModel) -> ScreenBuffer {
        let size = model.size
        // The palette key swaps the theme; the legend follows since it is drawn from the theme.
        var context = model.scheme.map { self.context.with(theme: self.context.theme.with(scheme: $0)) } ?? self.context
        if model.skateLayer { context = context.with(skateShown: true) }
        if TooSmallScreen.isTooSmall(size) { return TooSmallScreen.render(size: size, theme: context.theme) }
        var buffer = ScreenBuffer(size: size)
        let theme = context.theme
        buffer.asciiOnly = theme.glyphs == .ascii
        let extra = Array(model.sessionHazards.values).sorted { ($0.lat, $0.lon) < ($1.lat, $1.lon) }
        // The key bar under an overlay: the overlay's keys (help, question, lists) or the screen's.
        let ctx = model.keyContext == .ridePicker ? model.screen : model.keyContext
        switch model.screen {
        case .browse, .planInput, .ridePicker, .arrival, .spotList, .routeName, .help, .confirmLeave, .savedList, .mapList, .downhillList:
            var b = model.browse
            if !extra.isEmpty { var o = b.overlay ?? RouteOverlay(); o.hazards += extra; b.overlay = o }
            MapBrowseScreen.render(b, context: context, into: &buffer)
        case .plan:
            PlanScreen.render(model.plan, context: context, services: services, extraHazards: extra, into: &buffer, keyContext: ctx)
        case .preview:
            if let p = model.preview { PreviewScreen.render(p, context: context, extraHazards: extra, into: &buffer, keyContext: ctx) }
        case .ride:
            if let r = model.ride { RideScreen.render(r, context: context, extraHazards: extra, into: &buffer, keyContext: ctx) }
        }
        let body = ScreenLayout.body(size)
        let mapBody: Rect = switch model.screen {
        case .ride: RideScreen.mapArea(size)
        case .preview: PreviewScreen.mapArea(size, plan: model.preview?.plan.plan)
        case .plan: PlanScreen.mapArea(size)
        default: body
        }
        if let b = model.banner { CueBannerWidget.render(b, theme: theme, into: &buffer, area: mapBody) }
        if let p = model.picker, p.visible {
            RidePicker.render(p, directory: services.ridesDirectory, theme: theme, into: &buffer, area: body)
        }
        if let l = model.spotList { SpotList.render(l, theme: theme, into: &buffer, area: body) }
        if let l = model.savedList { SavedList.render(l, theme: theme, into: &buffer, area: body) }
        if let l = model.mapList { MapList.render(l, currentPath: services.mapPath, theme: theme, into: &buffer, area: body) }
        if let l = model.downhillList { ExploreEntries.render(l, theme: theme, into: &buffer, area: body) }
        if let r = model.routeName { RouteNamePrompt.render(r, theme: theme, into: &buffer, area: body) }
        let bottom = Rect(size: size).splitBottom(1).bottom
        if let p = model.pending {
            buffer.fill(bottom, with: Cell(" ", style: theme.style(.bannerWarn)))
            buffer.write(" " + QuickReports.prompt(p, width: size.width - 2), x: 0, y: bottom.y, style: theme.style(.bannerWarn), maxWidth: size.width)
        }
        if model.leaving != nil {
            // The question replaces the key bar: its keys are the answer.
            let q = model.leaving == .quit ? " Quit during the ride? " : " Leave the ride? "
            buffer.fill(bottom, with: Cell(" ", style: theme.style(.bannerWarn)))
            let n = buffer.write(q, x: 0, y: bottom.y, style: theme.style(.bannerWarn), maxWidth: size.width)
            KeyBarWidget.render(keyMap: context.keyMap, screen: .confirmLeave, theme: theme, into: &buffer,
                                area: Rect(x: n, y: bottom.y, width: max(0, size.width - n), height: 1))
        }
        if model.helpVisible {
            HelpOverlayWidget.render(keyMap: context.keyMap, screen: helpScreen(model), theme: theme, into: &buffer, area: body,
                                     scroll: model.helpScroll)
            KeyBarWidget.render(keyMap: context.keyMap, screen: .help, theme: theme, into: &buffer, area: bottom)
        }
        // Toasts have the title row to themselves: never over the map, its scale bar or labels.
        if let t = model.toast { ToastWidget.render(t, theme: theme, into: &buffer, area: Rect(x: 0, y: 0, width: size.width, height: 1)) }
        return buffer
    }
}
