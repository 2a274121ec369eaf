import App

/// The words `body` was refused with (InvalidInput's or Refusal's description); nil when it succeeded, and a note that fails
/// any comparison when it threw something else.
func refusal<Result>(_ body: () throws -> Result) -> String? {
    do {
        _ = try body()
        return nil
    } catch let refusal as InvalidInput {
        return refusal.description
    } catch let refusal as Refusal {
        return refusal.description
    } catch {
        return "not InvalidInput: \(error)"
    }
}
