# SPDX-License-Identifier: Apache-2.0
"""Training templates built from frames and word lists, for
scripts/generate-understanding-data.py: the many ways of asking for the same
thing (verbs, nouns, who pays whom, politeness, reasons, methods) crossed
with each other, instead of one flat list of sentences per intent.

Train only: the dev templates in the generator stay separate. The same
template syntax: (a|b) picks one, (x)? keeps x half the time, {P} person,
{Pposs} person's, {R} family word, {A} amount, {N} note, {D} date, {M} method,
{F}/{T}/{C} from/to/any account, {O} organisation, {K} bill kind, {B} bank,
{X} thing, {Y} favour, {open}/{end} openings and endings.
"""


def alt(words):
    return "(" + "|".join(words) + ")"


# --- English ---------------------------------------------------------------------------------------------------

# "send Tom $20": verbs that take the person, then the amount.
GIVE = ["send", "pay", "give", "transfer", "wire", "venmo", "zelle", "shoot", "slip", "lend", "loan", "front", "spot",
        "advance", "pass", "refund", "reimburse", "repay", "pay back", "send back"]
# "send $20 to Tom": verbs that take the amount, then the person.
GIVE_TO = ["send", "pay", "give", "transfer", "wire", "pass", "remit", "forward", "move", "push", "release", "pay out",
           "send over", "transfer over", "return", "give back", "pay back", "send back", "deliver"]
PAYMENT_NOUN = ["payment", "transaction", "transfer", "money transfer", "remittance", "wire", "bank transfer",
                "p2p payment", "direct payment", "cash transfer", "funds transfer", "peer to peer payment"]
MAKE = ["make", "do", "send", "set up", "initiate", "start", "create", "process", "submit", "schedule", "arrange",
        "complete", "execute", "go ahead with", "carry out", "open", "begin"]
REASON = ["for {N}", "for {N}", "for the {N}", "back for {N}", "as my share of {N}", "to cover {N}", "toward {N}",
          "for my half of {N}", "for my part of {N}"]
PRIVACY = ["privately", "in private", "publicly", "visible to everyone", "as a private payment", "and keep it private",
           "and make it public", "so only we can see it", "publicly so everyone sees"]
METHOD = ["from my {M}", "with my {M}", "using my {M}", "out of my {M}", "through my {M}", "on my {M}"]
SHARE = ["share", "half", "part", "portion", "cut", "bit"]
# Nouns that name a payment to someone even when nobody is named ("a transfer" alone may be between one's accounts).
PAYMENT_NOUN_ALONE = ["payment", "transaction", "p2p payment", "direct payment", "peer to peer payment", "cash payment",
                      "money payment", "quick payment", "one-time payment"]

SEND = [
    "{open}" + alt(GIVE) + " {P} {A}{end}",
    "{open}" + alt(GIVE) + " {P} {A} " + alt(REASON) + "{end}",
    "{open}" + alt(GIVE_TO) + " {A} to {P}{end}",
    "{open}" + alt(GIVE_TO) + " {A} to {P} " + alt(REASON) + "{end}",
    "{open}" + alt(GIVE_TO) + " {A} to {P} " + alt(METHOD) + "{end}",
    "{open}" + alt(GIVE_TO) + " {A} to {P} " + alt(PRIVACY) + "{end}",
    "{open}" + alt(GIVE_TO) + " {A} to {P} {D}{end}",
    "{open}" + alt(GIVE) + " {P} {A} {D}{end}",
    "{open}" + alt(GIVE) + " {P} {A} " + alt(METHOD) + "{end}",
    "{open}" + alt(MAKE) + " a " + alt(PAYMENT_NOUN) + " (to|for|with) {P}{end}",
    "{open}" + alt(MAKE) + " a " + alt(PAYMENT_NOUN) + " (of|for) {A} (to|for) {P}{end}",
    "{open}" + alt(MAKE) + " a {A} " + alt(PAYMENT_NOUN) + " (to|for) {P}{end}",
    "{open}" + alt(MAKE) + " a " + alt(PAYMENT_NOUN) + " to {P} " + alt(METHOD) + "{end}",
    "{open}" + alt(MAKE) + " a (private|public) " + alt(PAYMENT_NOUN) + " to {P}( for {A})?{end}",
    "{open}" + alt(MAKE) + " a " + alt(PAYMENT_NOUN) + " to my " + "{R}{end}",
    # Nobody named yet: the dialog asks whom.
    "{open}" + alt(MAKE) + " a (private |public |new )?" + alt(PAYMENT_NOUN_ALONE) + "( " + alt(METHOD) + ")?( " + alt(PRIVACY) + ")?{end}",
    "{open}" + alt(MAKE) + " a (private |public )?" + alt(PAYMENT_NOUN_ALONE) + " (of|for) {A}( " + alt(METHOD) + ")?{end}",
    "{open}(send|pay|give) (some )?(money|cash|funds) to (someone|somebody|a friend|my friend|a person|a contact)( " + alt(METHOD) + ")?{end}",
    "{open}(send|pay) {A} to (someone|somebody|a friend|my friend|a contact)( " + alt(PRIVACY) + ")?{end}",
    "{open}(send|give|transfer|wire|get) (some )?(money|cash|funds|dough|the money) to {P}( " + alt(REASON) + ")?{end}",
    "{open}(send|give|wire) {P} (some )?(money|cash|funds|the money)( " + alt(REASON) + ")?{end}",
    "{open}pay {P}( back)? " + alt(REASON) + "{end}",
    "{open}(pay|send|give) {P} (my|our) " + alt(SHARE) + "( of {N})?{end}",
    "{open}(pay|send|give) my " + alt(SHARE) + " (of {N} )?to {P}{end}",
    "{open}(send|pay) {P} (the money|what) i owe (him|her|them)( for {N})?{end}",
    "i owe (my {R}|{P}) {A}( for {N})?, (can you |please )?(send|pay|transfer) it( to (him|her|them))?{end}",
    "i still owe {P} {A}( for {N})?{end}",
    "{P} (lent|loaned|fronted|spotted) me {A}( for {N})?, (pay|send) (it|that|the money) back( to (him|her|them))?{end}",
    "{P} (paid|covered|got) (for )?{N}, (send|pay|give) (him|her|them) (my " + alt(SHARE) + "|{A}){end}",
    "{open}(settle|square) up with {P}( for {N})?{end}", "{open}settle (my tab|the tab|my debt|what i owe) with {P}{end}",
    "{open}(split|share) (the cost of )?{N} with {P} and (pay|send) (my|our) " + alt(SHARE) + "{end}",
    "{open}(return|give back|send back) the {A} (i borrowed from|i owe) {P}{end}",
    "{open}(put|deposit|drop|load) {A} (in|into|onto) {Pposs} (account|venmo|paypal|card|wallet){end}",
    "{open}(send|pay|transfer) {A} to {P} (on|through|via|with|over) (venmo|zelle|paypal|cash app|the app|apple pay){end}",
    "{open}{P} (needs|wants|asked for|is waiting for|should get) {A}( " + alt(REASON) + ")?{end}",
    "{open}(help me )?(pay|send money to|send a payment to|pay back) (my {R}|{P}){end}",
    "how (do|can) i (pay|send money to|send {A} to|pay back) {P}{end}",
    "(can|could|would) you (please )?(pay|send|give|transfer|wire) {P} {A}( " + alt(REASON) + ")?{end}",
    "(can|could|would) you (please )?(send|pay|transfer|wire) {A} to {P}( " + alt(REASON) + ")?{end}",
    "(i'd like to|i want to|i need to|i have to|i wanna|i gotta) (pay|send|give|transfer) {P} {A}( " + alt(REASON) + ")?{end}",
    "(i'd like to|i want to|i need to|i have to|i wanna|i gotta) (pay|send|give|transfer) {A} to {P}( " + alt(REASON) + ")?{end}",
    "i('ll| will| am going to|'m going to) (pay|send|give) {P} {A} (now|today|right now|{D})( " + alt(REASON) + ")?{end}",
    "(let's|lets) (send|pay|give) {P} {A}( " + alt(REASON) + ")?{end}",
    "{P} {A}( " + alt(REASON) + ")?{end}", "(pay|send) {P}, {A}( " + alt(REASON) + ")?{end}",
    "(payment|transfer|money) (to|for) {P}: {A}{end}",
    "{open}(tip|thank) {P} (with )?{A}( " + alt(REASON) + ")?{end}",
    "{open}(pay|send) (my {R}|{P}) (his|her|their) (allowance|wages|salary|pay|rent money|birthday money|gift money)( of {A})?{end}",
    "{open}(pay|send) (the|my) {R}( {A})?( " + alt(REASON) + ")?{end}",
]

ASK = ["ask", "tell", "remind", "nudge", "get", "want", "need", "text", "message", "bug", "hit up"]
ASK_TO = ["pay", "send", "give", "transfer", "venmo", "zelle", "wire", "return", "repay", "pay back", "reimburse",
          "send back", "give back", "refund"]
REQUEST_VERB = ["request", "ask for", "collect", "claim", "recover", "get back", "recoup", "demand", "receive", "get"]
REQUEST_NOUN = ["payment request", "money request", "request", "request for money", "request for payment", "bill",
                "invoice", "payment demand", "reminder to pay", "charge", "request for reimbursement"]
OWED = ["owes me", "still owes me", "has owed me", "never paid me", "hasn't paid me", "borrowed", "needs to pay me",
        "should pay me", "has to pay me back", "was supposed to pay me"]

REQUEST = [
    "{open}" + alt(REQUEST_VERB) + " {A} from {P}{end}",
    "{open}" + alt(REQUEST_VERB) + " {A} from {P} " + alt(["for {N}", "for the {N}", "for their share of {N}",
                                                             "for half of {N}", "to cover {N}"]) + "{end}",
    "{open}" + alt(REQUEST_VERB) + " (money|the money|payment|my money|a payment|reimbursement) from (my {R}|{P})( for {N})?{end}",
    "{open}" + alt(REQUEST_VERB) + " {A} from {P} " + alt(PRIVACY) + "{end}",
    "{open}" + alt(REQUEST_VERB) + " {A} from {P} {D}{end}",
    "{open}(ask|tell|remind|nudge|get|text|message) {P} to " + alt(ASK_TO) + " me( back)? {A}( for {N})?{end}",
    "{open}(ask|tell|remind|nudge|get) {P} to " + alt(ASK_TO) + " me( back)?( for {N})?{end}",
    "{open}(have|make|let) {P} " + alt(ASK_TO) + " me( back)? {A}( for {N})?{end}",
    "i (want|need|would like|'d like) {P} to " + alt(ASK_TO) + " me( back)?( {A})?( for {N})?{end}",
    "{open}(have|make|get) {P} (to )?(pay|cover|chip in) (their|his|her) " + alt(SHARE) + "( of {N})?(, {A})?{end}",
    "{P} " + alt(OWED) + " {A}( for {N})?{end}",
    "{P} " + alt(OWED) + " {A}( for {N})?, (request|ask for|collect|get|claim) (it|that|the money|what (he|she|they) owe(s)?)?{end}",
    "{P} " + alt(OWED) + " {A}( for {N})?, (ask|tell|remind) (him|her|them) to pay( up| me back)?{end}",
    "{open}" + alt(MAKE) + " a " + alt(REQUEST_NOUN) + " (to|for) {P}( (for|of) {A})?{end}",
    # Nobody named yet: the dialog asks whom.
    "{open}" + alt(MAKE) + " a (private |public |new )?(payment request|money request|request for money|request for payment)( (for|of) {A})?( " + alt(PRIVACY) + ")?{end}",
    "{open}(request|ask for|collect) (some )?(money|a payment|funds|cash|{A}) from (someone|somebody|a friend|my friend|a contact)( " + alt(PRIVACY) + ")?{end}",
    "{open}(request|ask for) (some )?(money|a payment|{A})( " + alt(PRIVACY) + ")?{end}",
    "{open}" + alt(MAKE) + " a {A} " + alt(REQUEST_NOUN) + " (to|for) {P}( for {N})?{end}",
    "{open}(send|issue|give|forward) {P} a " + alt(REQUEST_NOUN) + "( (for|of) {A})?( for {N})?{end}",
    "{open}(charge|bill|invoice) (my {R}|{P})( {A})?( for {N})?{end}",
    "{open}(get|receive) (my money|the money|{A}|my {A}|the {A}|payment)( back)? from {P}{end}",
    "{open}(collect|get|claim) (my|our|their|his|her) " + alt(SHARE) + " (of {N} )?from {P}{end}",
    "{open}(split|share) {N} with {P} and (request|ask for|collect|charge) (their|his|her|the other) " + alt(SHARE) + "{end}",
    "{open}(split|share) {A} (for {N} )?with {P} and (request|ask for|collect) (their|his|her) " + alt(SHARE) + "{end}",
    "i (want|need|would like|'d like) to (be paid|get paid|be reimbursed|be paid back|get my money back) (by|from) {P}( for {N})?{end}",
    "i('m| am) (owed|waiting on|still waiting for|due) {A} (from|by) {P}( for {N})?{end}",
    "{open}(remind|nudge|chase|bug) {P} (about|for|over) (the|my) ({A}|money|payment|cash)( for {N})?( (he|she|they) owe(s)? me)?{end}",
    "(can|could|would) you (please )?(request|ask for|collect) {A} from {P}( for {N})?{end}",
    "(can|could|would) you (please )?ask {P} to (pay|send|give) me {A}( for {N})?{end}",
    "how (do|can) i (request|ask for|collect) (money|{A}|payment) from {P}{end}",
    "(request|ask for|collect) {A} (from|off) my " + "{R}( for {N})?{end}",
    "(request|ask) (from|off) {P}, {A}( for {N})?{end}",
    "{open}(request|collect|ask for) {A} each from {P} and {P}( for {N})?{end}",
    "(money|payment|a request) from {P}: {A}{end}",
]

BILL_THING = ["{K} bill", "{O} bill", "bill from {O}", "{K} payment", "{K} statement", "{O} invoice", "{O} account",
              "{O} balance", "{K} bill for this month", "latest {K} bill", "{K} and {K} bills", "{O} statement"]
SETTLE = ["pay", "settle", "clear", "take care of", "knock out", "pay off", "square away", "deal with", "pay down",
          "finish off", "get rid of", "sort out", "process", "submit payment for", "make a payment on"]

PAY_BILL = [
    "{open}" + alt(SETTLE) + " (my|the|this month's|our|the latest|this) " + alt(BILL_THING) + "{end}",
    "{open}" + alt(SETTLE) + " (my|the) " + alt(BILL_THING) + " {D}{end}",
    "{open}" + alt(SETTLE) + " (my|the) " + alt(BILL_THING) + " " + alt(METHOD).replace("{M}", "{F}") + "{end}",
    "{open}" + alt(MAKE) + " (a|my|the) (payment|bill payment|monthly payment|minimum payment) (to|for|on) (my )?({O}|{K} bill|{O} account){end}",
    "{open}" + alt(MAKE) + " (a|my|the) (payment|bill payment) (of {A} )?(to|for|on) (my )?({O}|{K} bill)( {D})?{end}",
    "{open}(send|apply|pay) {A} (to|toward|towards|on|against) (my|the) ({K} bill|{O} (bill|account|balance)){end}",
    "{open}(pay|send) {O} (the|my) (balance|amount due|bill|monthly payment|minimum|statement balance|full amount){end}",
    "{open}(pay|send) {A} to {O}( for (my|the) {K}( bill)?)?( {D})?{end}",
    "{open}(pay|settle) (my|the) (bill|bills|invoice)( {D})?{end}",
    "{open}(pay|take care of) (my|the|all my|all the) (bills|due bills|outstanding bills|open bills){end}",
    "(can|could|would) you (please )?" + alt(SETTLE) + " (my|the) " + alt(BILL_THING) + "( {D})?{end}",
    "(i'd like to|i want to|i need to|i have to|i wanna|i gotta) " + alt(SETTLE) + " (my|the) " + alt(BILL_THING) + "( {D})?{end}",
    "(my|the) " + alt(BILL_THING) + " (is due|needs paying|needs to be paid|has to be paid)( {D})?, (pay|settle) it{end}",
    "{open}(pay|settle) (the )?(minimum|full balance|statement balance|amount due|remaining balance|past due amount) (on|of|for) (my|the) " + alt(BILL_THING) + "{end}",
    "{open}(pay|send) (my |the )?{K}( payment)?( to {O})?( {D})?{end}",
    "{open}(schedule|set) (a|the) (payment|bill payment) (for|to) (my )?({K} bill|{O}) (for|on) {D}{end}",
    "{open}(pay|settle) {O}( {D})?{end}",
]

BILL_STATE = ["due", "overdue", "unpaid", "outstanding", "pending", "upcoming", "open", "late", "recent", "latest"]
SEARCH_BILLS = [
    "(when|what day|what date) is (my|the) " + alt(BILL_THING) + " due{end}",
    "(when|what day) (do|should|must) i (pay|send payment to) ({O}|(my|the) {K} bill){end}",
    "(how much|what) (is|do i owe on|is due on|is owed on|'s due on) (my|the) " + alt(BILL_THING) + "{end}",
    "(how much|what) do i (owe|have to pay) ({O}|for (my|the) {K})( {D})?{end}",
    "{open}(show|list|find|check|look up|display|get|give me) (my|all my|the)( " + alt(BILL_STATE) + ")? bills( {D})?{end}",
    "{open}(show|list|find|check|display) (my|the) (" + "|".join(BILL_STATE) + ") " + alt(BILL_THING) + "{end}",
    "(do|will) i have (any )?(bills|payments) (due|to pay|outstanding|pending)( {D})?{end}",
    "(are|is) there (any )?(" + "|".join(BILL_STATE) + ") bills( {D})?{end}",
    "what('s| is) (the )?(minimum|min|lowest|smallest) (payment|amount|amount due) (on|for) (my|the) " + alt(BILL_THING) + "{end}",
    "(is|has) (my|the) " + alt(BILL_THING) + " (been )?(paid|settled|taken care of)( yet)?{end}",
    "what (bills|payments) (are|do i have) (due|coming|outstanding|left) {D}{end}",
    "(tell me|remind me|let me know) (when|how much) (my|the) " + alt(BILL_THING) + " (is due|is|will be){end}",
    "(what's|what is) (the )?(balance|total|amount|due date|status|deadline) (of|on|for) (my|the) " + alt(BILL_THING) + "{end}",
    "how much (was|is) (my|the) " + alt(BILL_THING) + " {D}{end}",
]

ACCOUNT_MOVE = ["transfer", "move", "shift", "put", "send", "sweep", "take", "switch", "bring", "push",
                "deposit", "withdraw", "relocate", "allocate"]
TRANSFER = [
    "{open}" + alt(ACCOUNT_MOVE) + " {A} (from|out of) (my )?{F} (to|into|over to|in) (my )?{T}( {D})?{end}",
    "{open}" + alt(ACCOUNT_MOVE) + " {A} (to|into|over to) (my )?{T} (from|out of) (my )?{F}{end}",
    "{open}" + alt(ACCOUNT_MOVE) + " (some )?(money|cash|funds|savings) (from|out of) (my )?{F} (to|into) (my )?{T}( {D})?{end}",
    "{open}" + alt(ACCOUNT_MOVE) + " {A} (to|into) (my )?(own )?{T}( account)?{end}",
    "{open}(top up|refill|replenish|add to|boost|pad) (my )?{T}( with {A})?( from (my )?{F})?{end}",
    "i('d like| want| need) {A} (moved|transferred|sent|put|shifted) (to|into) (my )?{T}( from (my )?{F})?{end}",
    "{open}" + alt(MAKE) + " a (transfer|internal transfer|account transfer|balance transfer between my accounts)( of {A})?( from (my )?{F})?( to (my )?{T})?{end}",
    "(can|could|would) you (please )?(transfer|move|put) {A} (from (my )?{F} )?(to|into) (my )?{T}( {D})?{end}",
    "(i'd like to|i want to|i need to|i have to|i wanna) (transfer|move|put) {A} (from (my )?{F} )?(to|into) (my )?{T}( {D})?{end}",
    "{open}(transfer|move) (money|{A}) between my (accounts|own accounts|checking and savings){end}",
    "{open}(empty|drain|clear out) (my )?{F} (into|to) (my )?{T}{end}",
    "{F} to {T}, {A}{end}", "{A} from {F} to {T}{end}",
]

BALANCE_WORD = ["balance", "balances", "available balance", "current balance", "account balance", "funds", "money",
                "cash", "available credit", "remaining credit"]
ACCOUNTS = [
    "(what's|what is|tell me|show me|give me|check|read me|get me|display) (my )?" + alt(BALANCE_WORD) + "( (in|on|of|for) (my )?{C})?{end}",
    "how much (money )?(do i have|is there|have i got|is left|remains|is available|can i use) (in|on) (my )?{C}{end}",
    "how much (money |cash )?(do i have|have i got|is left)( right now| at the moment| today)?{end}",
    "(how's|how is) my {C}( balance)? doing( today)?{end}",
    "(am i|is my {C}) (overdrawn|in the red|running low|below zero|negative){end}",
    "(do|will) i have enough (money |funds )?(in (my )?{C} )?(for|to cover) ({N}|{A}){end}",
    "{open}(show|list|display) (all )?(my )?(accounts|bank accounts|cards|account list|account balances){end}",
    "{open}(check|look at|view|see) (my )?{C}( balance)?( at {B})?{end}",
    "(what's|what is) (left|available|remaining) (in|on) (my )?{C}{end}",
    "(balance|balances|funds) (in|on|of|for) (my )?{C}( please)?{end}",
    "(what's|what is) my (net worth|total balance|combined balance|balance across all accounts){end}",
]

PAYMENT_LIST = ["payments", "transactions", "transfers", "activity", "history", "payment history", "transaction history",
                "money transfers", "purchases", "charges", "spending", "sent payments", "received payments"]
SEARCH_PAYMENTS = [
    "{open}(show|list|find|look up|check|display|give me|get|search) (my )?(recent |past |last |previous |outgoing |incoming |latest )?" + alt(PAYMENT_LIST) + "( (to|from|with|for) {P})?( {D})?{end}",
    "(did|have) i (pay|send|give|transfer|wire) (any )?(money (to )?)?{P}( {D}| yet| already)?{end}",
    "(when|how much) did i (last )?(pay|send|give|transfer) {P}( {D})?{end}",
    "(did|has|have) {P} (pay|paid|send|sent|give|given|pay back|paid back|reimburse|reimbursed|return|returned) (me|my money)( {D}| yet| already)?{end}",
    "what (did|have) i (pay|paid|send|sent|give|given) {P}( {D})?{end}",
    "(how much|what) (did|have) i (spend|spent|pay|paid|send|sent) {D}{end}",
    "(how much|what) (did|has) {P} (send|sent|pay|paid|give|given) me( {D})?{end}",
    "(show|tell|give) me (everything|all the money|what) i (sent|paid|gave|transferred)( to {P})?( {D})?{end}",
    "(was|is) my (payment|transfer|money) to {P} (sent|received|done|complete|pending|through)( {D})?{end}",
    "(were there any|did i get any) (payments|money|transfers) from {P}( {D})?{end}",
    "who (did i pay|did i send money to|paid me|sent me money) {D}{end}",
]

THING_MORE = ["directions", "help", "feedback", "their address", "a hand", "a lift", "a recommendation", "the wifi password",
              "their opinion", "a photo", "the notes", "a copy", "the keys", "a charger", "a pen", "the time", "a break",
              "some advice", "a reference", "their email", "a second opinion", "the homework", "a tip on stocks"]
OUT_OF_SCOPE = [
    "{open}(ask|text|message|call|email) {P} (for|about) " + alt(THING_MORE) + "{end}",
    "{open}(send|give|pass|forward|mail|show|hand) {P} " + alt(THING_MORE[5:]) + "{end}",
    "{open}(send|forward|share|mail|upload|move|copy|transfer) {X} (to|over to|with) {P}{end}",
    "{open}(move|copy|transfer|sync|back up) (my )?(photos|files|music|contacts|documents|apps|data) (to|onto|into) (my )?(new phone|laptop|cloud|tablet|drive|computer){end}",
    "{P} (owes|still owes) me (a favor|an apology|a call|a visit|a drink|an explanation|a dinner){end}",
    "i owe {P} (a favor|an apology|a call|a visit|a drink|an explanation|a dinner|one){end}",
    "should i (lend|loan|give) {P} (money|{A})( for {N})?{end}",
    "is it (ok|okay|rude|wise|smart|normal|safe) to (ask|lend|give) {P} (for )?(money|{A}){end}",
    "(how|why|when) (does|did|do) (people|banks|apps|venmo|zelle) (send|transfer|charge|request) money{end}",
    "what('s| is) (a|the) (payment request|wire transfer|money order|routing number|swift code|iban){end}",
    "(how long|how much) (does|will) (a|an) (wire|transfer|international transfer|payment) (take|cost){end}",
    "(what's|what is) the (fee|limit|charge) (for|on) (sending|transfers|wires|payments){end}",
    "{open}(pay|give) (a compliment|a visit|tribute|respect|homage|my respects) to {P}{end}",
    "{P} (paid|sent|gave|transferred) {A} to (his|her|their) (brother|friend|sister|landlord){end}",
    "(my|our) {K} bill (is|was|seems) (too high|huge|crazy|expensive|going up){end}",
    "how (can|do) i (lower|reduce|cut) my {K} bill{end}", "(compare|find cheaper|switch) {K} (providers|plans|companies){end}",
    "{open}(dispute|report|cancel) (a|the|my) (charge|transaction|subscription) (from|on|with) {O}{end}",
    "{open}(order|buy|book|reserve|get) (a|some|two|tickets for|a table for) {N}( {D})?{end}",
    "(what's|what is) (the )?(exchange rate|interest rate|inflation rate|stock price|price of gold){end}",
    "{open}(turn on|turn off|set up|change) (notifications|dark mode|my password|two factor|face id|my pin){end}",
    "{open}(open|close) (a|my) (savings|checking|brokerage|retirement) account{end}",
    "{open}(apply|sign up) for (a|an) (credit card|loan|mortgage|overdraft){end}",
]

# --- Spanish ---------------------------------------------------------------------------------------------------

ES_SEND = [
    "{open}(envía|envíale|manda|mándale|paga|págale|transfiere|transfiérele|dale|pásale|presta|préstale|devuélvele|regresa|regrésale|gira|gírale) {A} a {P}( para {N}| por {N})?{end}",
    "{open}(envíale|mándale|págale|transfiérele|dale|pásale|devuélvele|gírale) a {P} {A}( para {N}| por {N})?{end}",
    "{open}(haz|hazle|realiza|hacer|realizar|quiero hacer|necesito hacer) (un|una) (pago|transferencia|envío|giro|depósito) (a|para) {P}( de {A})?( para {N})?{end}",
    "{open}(envía|envíale|manda|mándale|transfiere) (dinero|plata|lana|efectivo|la plata|el dinero) a (mi {R}|{P})( para {N})?{end}",
    "(le debo|todavía le debo|aún le debo) {A} a {P}( por {N})?, (págale|mándaselos|envíaselos|transfiérele)( ya)?{end}",
    "{open}(págale|devuélvele|regrésale) a {P} lo que le debo( de {N})?{end}",
    "{open}(envía|manda|paga|transfiere) {A} a {P} (desde|con|usando) mi {F}{end}",
    "{open}(envía|manda|paga|transfiere) {A} a {P} {D}{end}",
    "(quiero|necesito|me gustaría|tengo que|quisiera) (pagarle|enviarle|mandarle|transferirle|darle|devolverle) {A} a {P}( para {N}| por {N})?{end}",
    "(¿puedes|¿podrías|¿me ayudas a) (pagarle|enviarle|mandarle|transferirle) {A} a {P}( para {N})??",
    "{open}(paga|págale) mi parte (de {N} )?a {P}{end}",
    "{open}(envíale|mándale) (un pago|una transferencia|dinero) privad(o|a) a {P}( de {A})?{end}",
    "{open}(haz|realiza|hacer|realizar|quiero hacer|necesito hacer|ayúdame a hacer) un (pago|envío de dinero|pago privado)( de {A})?( (desde|con|usando) mi {F})?{end}",
    "{open}(quiero|necesito|me gustaría) (enviar|mandar|pagar) (dinero|{A}) a (alguien|un amigo|una amiga|un contacto){end}",
]
ES_REQUEST = [
    "{open}(pide|pídele|solicita|solicítale|cobra|cóbrale|exige|exígele|requiere) {A} a {P}( para {N}| por {N})?{end}",
    "{open}(pídele|solicítale|cóbrale|exígele) a {P} {A}( por {N}| para {N})?{end}",
    "{open}(pídele|dile|recuérdale) a {P} que me (pague|envíe|mande|transfiera|devuelva|regrese|dé|deposite) {A}( de {N}| por {N})?{end}",
    "{open}(pídele|dile|recuérdale) a (mi {R}|{P}) que me (pague|devuelva|regrese)( lo que me debe)?{end}",
    "{P} me debe {A}( de {N}| por {N})?(, (pídeselos|cóbraselos|pídele que me pague|recuérdaselo))?{end}",
    "{open}(envía|envíale|manda|mándale|crea|haz) (una solicitud de pago|una solicitud de dinero|un cobro|un recordatorio de pago|una petición de dinero) (a|para) {P}( de {A}| por {A})?{end}",
    "(quiero|necesito|me gustaría|quisiera) (cobrarle|pedirle|solicitarle) {A} a {P}( por {N}| para {N})?{end}",
    "(quiero|necesito) que {P} me (pague|devuelva|envíe|mande|transfiera) {A}( por {N})?{end}",
    "{open}(cobra|cóbrale|pide) (mi|su) parte de {N} a {P}{end}",
    "(¿puedes|¿podrías) (pedirle|cobrarle|solicitarle) {A} a {P}( por {N})??",
    "{open}(quiero|necesito|me gustaría|quisiera) (pedir|solicitar|cobrar) (dinero|un pago|{A})( a alguien| a un amigo)?{end}",
    "{open}(haz|crea|envía|manda) una (solicitud|petición) de (pago|dinero)( de {A})?( privada)?{end}",
]
ES_PAY_BILL = [
    "{open}(paga|pagar|abona|haz el pago de|realiza el pago de) (mi|la|el) (factura|recibo|cuenta|boleta) de (la )?({K}|{O})( {D})?{end}",
    "{open}(paga|pagar|abona) {A} (de|a|en) (mi|la|el) (factura|recibo|cuenta) de (la )?({K}|{O}){end}",
    "{open}(paga|pagar|abona) (mi|la|el) (factura|recibo|cuenta) de {K} (con|desde) mi {F}{end}",
    "(quiero|necesito|tengo que|me gustaría) pagar (mi|la|el) (factura|recibo|cuenta) de (la )?({K}|{O})( {D})?{end}",
    "{open}(paga|pagar) (el mínimo|el total|el saldo|lo que debo) de (mi|la) (factura|tarjeta|cuenta) de {K}{end}",
    "{open}(paga|pagar|pagale a) {O}( {A})?{end}", "{open}(paga|pagar) (mis|las) (facturas|cuentas|recibos)( pendientes)?{end}",
    "{open}(programa|agenda) el pago (de la factura|del recibo) de {K} (para|el) {D}{end}",
]
ES_SEARCH_BILLS = [
    "¿(cuándo|qué día) (vence|se vence|hay que pagar|tengo que pagar) (mi|la|el) (factura|recibo|cuenta) de (la )?({K}|{O})?",
    "¿cuánto (debo|tengo que pagar|es|sale) (de|en) (mi|la|el) (factura|recibo|cuenta) de (la )?({K}|{O})?",
    "{open}(muéstrame|enséñame|dime|lista|ver|revisa) (mis|las) (facturas|cuentas|recibos)( pendientes| vencidas| por pagar| de {K})?( {D})?{end}",
    "¿(tengo|hay) (facturas|recibos|cuentas) (pendientes|por pagar|vencidas)( {D})??",
    "¿(ya pagué|pagué|está pagada) (mi|la|el) (factura|recibo) de (la )?({K}|{O})?",
    "¿cuál es el (pago mínimo|saldo|monto|total) de (mi|la) (factura|tarjeta|cuenta) de {K}?",
]
ES_TRANSFER = [
    "{open}(transfiere|mueve|pasa|traslada|manda|envía|pon) {A} (de|desde) (mi |mis |la )?{F} (a|hacia|en) (mi |mis |la )?{T}( {D})?{end}",
    "{open}(transfiere|mueve|pasa|pon) {A} (a|en) (mi |mis )?{T}( desde (mi )?{F})?{end}",
    "(quiero|necesito|me gustaría|quisiera) (transferir|mover|pasar|poner) {A} (de (mi )?{F} )?(a|en) (mi )?{T}( {D})?{end}",
    "{open}(haz|hacer|realiza) una transferencia( de {A})? (de (mi )?{F} )?a (mi )?{T}{end}",
    "{open}(transfiere|mueve) dinero entre mis cuentas{end}",
]
ES_ACCOUNTS = [
    "¿(cuál es|cuánto es|me dices) (mi|el) saldo( de (mi )?{C}| disponible| actual)??",
    "¿cuánto (dinero |plata )?(tengo|hay|me queda|queda) en (mi |la )?{C}?",
    "¿cuánto (dinero |plata )?(tengo|me queda)( ahora| hoy)??",
    "{open}(muéstrame|dime|consulta|revisa|ver|checa) (mi|el|los|mis) (saldo|saldos|cuentas|balance)( de (mi )?{C})?{end}",
    "¿(tengo|hay) (suficiente|dinero|fondos) en (mi )?{C}( para {N})??",
]
ES_SEARCH_PAYMENTS = [
    "{open}(muéstrame|enséñame|dime|busca|lista|ver) (mis|los) (pagos|transacciones|transferencias|movimientos|envíos)( (a|de|con) {P})?( {D})?{end}",
    "¿(le pagué|le envié dinero|le mandé dinero|le transferí) a {P}( {D})??",
    "¿(cuánto|qué) le (pagué|envié|mandé|transferí) a {P}( {D})??",
    "¿(me pagó|me envió|me mandó|me devolvió) {P}( el dinero| lo que me debía)?( {D})??",
    "¿(qué|cuántos) pagos (hice|recibí|tengo pendientes)( {D})??",
]
ES_OUT_OF_SCOPE = [
    "{open}(envía|manda|reenvía|comparte) (un mensaje|un correo|una foto|el documento|la ubicación|un audio) a {P}{end}",
    "{open}(pídele|pregúntale) a {P} (la receta|su dirección|un favor|ayuda|consejo|su número|la contraseña del wifi){end}",
    "{P} me debe (una disculpa|una llamada|una visita|un favor|una cerveza){end}",
    "¿(es buena idea|conviene|debería) (prestarle|darle|mandarle) dinero a {P}?",
    "¿(qué|cómo) es (una transferencia|un cheque|una cuenta de ahorros|el saldo|una factura)?",
    "{open}(transfiere|pasa|mueve) (mis fotos|mis contactos|mis archivos|la llamada) a {P}{end}",
    "¿cuánto cuesta (un boleto|una pizza|el cine|un café) {D}?",
    "{open}(pon|reproduce) (música|una canción|la radio|un podcast){end}",
    "¿(qué tiempo hará|va a llover|hace frío) {D}?",
    "{open}(abre|cierra) (una|mi) cuenta de (ahorros|cheques){end}",
    "¿cuál es (el tipo de cambio|la tasa de interés|el precio del dólar)?",
]


def english():
    """Extra train templates per intent (English)."""
    return {"send_payment": SEND, "request_payment": REQUEST, "pay_bill": PAY_BILL, "search_for_bills": SEARCH_BILLS,
            "transfer_money": TRANSFER, "search_for_accounts": ACCOUNTS, "search_for_payments": SEARCH_PAYMENTS,
            "out_of_scope": OUT_OF_SCOPE}


def spanish():
    """Extra train templates per intent (Spanish)."""
    return {"send_payment": ES_SEND, "request_payment": ES_REQUEST, "pay_bill": ES_PAY_BILL,
            "search_for_bills": ES_SEARCH_BILLS, "transfer_money": ES_TRANSFER, "search_for_accounts": ES_ACCOUNTS,
            "search_for_payments": ES_SEARCH_PAYMENTS, "out_of_scope": ES_OUT_OF_SCOPE}
