/// The demo directory, from the seeds: two Johns (one with home, mobile and
/// work handles), Tim Cook, Craig Federighi, Phil Schiller, and a checking account.
enum DemoDirectory {
    static let json = """
        {
          "contacts": [
            {"id": "john-appleseed", "displayName": "John Appleseed",
             "handles": [{"id": "john-appleseed-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0100"}]},
            {"id": "john-baily", "displayName": "John Baily",
             "handles": [
               {"id": "john-baily-home", "label": "home", "type": "phone", "value": "+1 408 555 0111"},
               {"id": "john-baily-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0112"},
               {"id": "john-baily-work", "label": "work", "type": "email", "value": "john.baily@example.com"}]},
            {"id": "tim-cook", "displayName": "Tim Cook",
             "handles": [{"id": "tim-cook-work", "label": "work", "type": "email", "value": "tim@example.com"}]},
            {"id": "craig-federighi", "displayName": "Craig Federighi",
             "handles": [{"id": "craig-federighi-work", "label": "work", "type": "email", "value": "craig@example.com"}]},
            {"id": "phil-schiller", "displayName": "Phil Schiller",
             "handles": [{"id": "phil-schiller-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0130"}]}
          ],
          "accounts": [
            {"id": "checking", "nickname": "Checking", "type": "checking",
             "balance": {"amount": "2500.00", "currency": "USD"}, "default": true}
          ]
        }
        """
}
