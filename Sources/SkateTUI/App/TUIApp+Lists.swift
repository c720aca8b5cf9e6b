/// The keys the list boxes over a screen share (descents, maps, saved places and routes, spots).
extension TUIApp {
    /// A list box at `box` in the model, holding `list`: Back or Esc closes it; Enter closes it and
    /// hands the list to `confirm` (which may change the model and returns the commands to run);
    /// any other key goes to `apply`, the list's own move.
    func listKey<List>(_ action: KeyAction, _ box: WritableKeyPath<AppModel, List?>, _ list: List, in model: AppModel,
                       apply: (KeyAction, List) -> List,
                       confirm: (List, inout AppModel) -> [AppCommand]) -> (AppModel, [AppCommand]) {
        var m = model
        switch action {
        case .back, .closeOverlay: m[keyPath: box] = nil
        case .confirm:
            m[keyPath: box] = nil
            let commands = confirm(list, &m)
            return (m, commands)
        default: m[keyPath: box] = apply(action, list)
        }
        return (m, [])
    }
}

extension AppModel {
    /// Back on the plan screen with `plan`, the preview dropped: a list's Enter chose its ends.
    mutating func showPlan(_ plan: PlanState) {
        self.plan = plan
        screen = .plan
        preview = nil
    }
}
