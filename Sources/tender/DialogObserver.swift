import TenderCore

/// Who watches a dialog the tool plays: the person's terminal (words) or a
/// host reading one JSON object per turn.
protocol DialogObserver {
    func resolved(_ results: [ParameterResolution])
    func asked(_ open: ParameterResolution)
    func answered(_ parameter: String, _ said: String)
    func confirmed(_ code: ResponseCode, _ response: JSONValue)
    func handled(_ outcome: HandleOutcome, denial: AuthenticationDenial?)
}
