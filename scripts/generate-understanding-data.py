#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes Tender's generated understanding data: labelled requests for the
seven Payments intents (and out-of-scope Spanish), with slot spans, in
English and Spanish, from templates written for Tender.

Train and dev are written from separate templates, openings and value lists
(dev people's names never occur in train), so the dev figure is not the
training figure. A fixed seed makes the output byte-for-byte reproducible.

    python3 scripts/generate-understanding-data.py [--out data/generated] [--seed 12]

Output, one JSON object a line, in the ../shared/data/sgd shape:
{"text", "expected", "lang", "slots": [{"slot", "start", "end", "value"}]}.
`expected` is an intent, "out_of_scope", or "answer" (a reply inside a dialog:
material for the slot labeller only). Slot names: person, amount, date,
from_account, to_account, account, org, bill_type, note.

Given names come from Faker's person providers (many locales, Latin script
only) and a list below; requirements: scripts/requirements-model.txt.
"""
import argparse
import json
import os
import random
import re

from faker import Faker

import understanding_grammar as grammar

LOCALES = ["en_US", "en_GB", "en_IN", "en_NG", "es_ES", "es_MX", "fr_FR", "de_DE", "it_IT", "pt_BR", "pl_PL", "tr_TR",
           "vi_VN", "nl_NL", "sv_SE", "fil_PH", "id_ID", "zu_ZA", "ga_IE", "yo_NG", "sw", "cs_CZ", "ro_RO", "hu_HU",
           "fi_FI", "da_DK", "no_NO", "az_AZ", "ja_JP", "zh_CN"]
# Romanised names of cultures whose Faker lists are in other scripts.
EXTRA_NAMES = """Mohammed Ahmed Fatima Aisha Omar Layla Youssef Mariam Hassan Khadija Ali Zainab Karim Noor Tariq Salma Bilal
Rania Hamza Amira Jin Hyun Minji Seo-yeon Ji-woo Dong-hyun Soo-ah Joon Eun-ji Taeyang Arjun Priya Rahul Ananya Vikram Deepika
Sanjay Kavya Rohan Meera Aditya Sneha Ivan Olga Dmitri Svetlana Nikolai Tatiana Sergei Natasha Yaroslav Oksana Kwame Ama Kofi
Abena Chidi Ngozi Emeka Adaeze Tunde Folake Mandla Thandiwe Sipho Lindiwe Wanjiru Otieno Nia Jabari Dimitris Eleni Yannis Sofia
Avi Noa Yael Eitan Dariush Shirin Parisa Reza Somchai Malee Arnav Ishaan Zara Ayaan Tenzin Pema Nodir Aziz Gulnara""".split()
FAMILY = ["mom", "mother", "dad", "father", "brother", "sister", "son", "daughter", "wife", "husband", "grandma", "grandpa",
          "aunt", "uncle", "cousin", "roommate", "landlord", "babysitter", "nanny", "boss", "friend", "neighbor", "coach",
          "tutor", "girlfriend", "boyfriend", "partner", "mum", "stepdad", "niece", "nephew", "grandmother", "mate"]
FAMILY_ES = ["mamá", "papá", "hermano", "hermana", "hijo", "hija", "esposa", "esposo", "abuela", "abuelo", "tía", "tío",
             "primo", "prima", "novia", "novio", "jefe", "amigo", "amiga", "vecino", "compañero de cuarto", "casero"]


STOP = set("""a about above according across act actually after again against all almost also although always among
an and another any anyone anything are around as at back be because become before behind being believe best better
between both but by can could did do does down during each either else enough even ever every few for from get give go
have he her here herself him himself his how however i if in into it its itself just least less like many may me might
mine more most much must my myself near need never no none nor not now of off often on once one only or other our out
over own per perhaps please put rather really same say see seem several she should since so some still such than that
the their them themselves then there these they this those though through thus to too toward under until up upon us
very was we well were what whatever when where whether which while who whom whose why will with within without would
yes yet you your yourself""".split())


def open_values(seed):
    """Open-class values (notes, organizations, account nicknames) made from word lists, split into train and dev."""
    from faker.providers.lorem.en_US import Provider as Lorem
    words = sorted(w for w in Lorem.word_list if w not in STOP and len(w) > 3)
    rng = random.Random(seed)
    rng.shuffle(words)
    fake = Faker("en_US")
    fake.seed_instance(seed)
    companies = sorted({fake.company().lower().replace(",", "") for _ in range(3000)})
    cities = sorted({fake.city().lower() for _ in range(1500)})
    rng.shuffle(companies)
    rng.shuffle(cities)
    from faker.providers.lorem.es_ES import Provider as LoremES
    words_es = sorted(w for w in LoremES.word_list if len(w) > 4)
    rng.shuffle(words_es)
    fake_es = Faker("es_MX")
    fake_es.seed_instance(seed)
    companies_es = sorted({fake_es.company().lower().replace(",", "") for _ in range(1500)})
    rng.shuffle(companies_es)
    out = []
    for part in (0, 1):
        we = words_es[: len(words_es) * 4 // 5] if part == 0 else words_es[len(words_es) * 4 // 5:]
        ce = companies_es[: len(companies_es) * 4 // 5] if part == 0 else companies_es[len(companies_es) * 4 // 5:]
        w = words[: len(words) * 4 // 5] if part == 0 else words[len(words) * 4 // 5:]
        c = companies[: len(companies) * 4 // 5] if part == 0 else companies[len(companies) * 4 // 5:]
        t = cities[: len(cities) * 4 // 5] if part == 0 else cities[len(cities) * 4 // 5:]
        suffixes = ["energy", "power", "water", "wireless", "telecom", "insurance", "gas and electric", "utilities",
                    "cable", "internet", "mutual", "electric", "water district", "broadband", "mobile"]
        orgs = [x for x in c] + [f"{city} {rng.choice(suffixes)}" for city in t] + [f"{rng.choice(w)} {rng.choice(suffixes)}" for _ in range(300)]
        notes = w + [f"the {x}" for x in w] + [f"{a} {b}" for a, b in zip(w, reversed(w))]
        accounts = [f"{x} fund" for x in w] + [f"{x} account" for x in w] + [f"{x} savings" for x in w[:100]] + [f"{x} card" for x in w[:100]]
        places = [x.title() for x in t] + [fake.street_address() for _ in range(200)]
        out.append({"orgs": orgs, "notes": notes, "accounts": accounts, "orgs_es": ce, "places": places,
                    "accounts_es": [f"fondo de {x}" for x in we] + [f"cuenta de {x}" for x in we] + [f"tarjeta {x}" for x in we[:80]]})
    return out


def names(seed):
    found = set()
    for locale in LOCALES:
        provider = [p for p in Faker(locale).providers if "person" in type(p).__module__][0]
        for attribute in ["first_names", "first_names_male", "first_names_female", "first_romanized_names"]:
            value = getattr(provider, attribute, None)
            if value:
                found |= set(value.keys() if isinstance(value, dict) else value)
    found |= set(EXTRA_NAMES)
    latin = sorted(n for n in found if re.fullmatch(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'\-]+", n) and len(n) > 1)
    surnames = set()
    for locale in ["en_US", "en_GB", "es_MX", "de_DE", "it_IT", "fr_FR", "en_IN", "pl_PL", "vi_VN", "tr_TR", "nl_NL", "ja_JP"]:
        provider = [p for p in Faker(locale).providers if "person" in type(p).__module__][0]
        for attribute in ["last_names", "last_romanized_names"]:
            value = getattr(provider, attribute, None)
            if value:
                surnames |= set(value.keys() if isinstance(value, dict) else value)
    surnames = sorted(n for n in surnames if re.fullmatch(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'\-]+", n))
    rng = random.Random(seed)
    rng.shuffle(latin)
    rng.shuffle(surnames)
    cut, scut = len(latin) * 4 // 5, len(surnames) * 4 // 5
    return (latin[:cut], surnames[:scut]), (latin[cut:], surnames[scut:])


# Values: (train, dev) lists where they differ.
AMOUNT_WORDS = ["five", "ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy five", "a hundred", "one hundred",
                "two hundred", "fifteen", "twenty five", "eighty", "ninety", "three hundred", "twelve", "forty five"]
AMOUNT_WORDS_ES = ["cinco", "diez", "veinte", "treinta", "cuarenta", "cincuenta", "cien", "doscientos", "quince",
                   "veinticinco", "sesenta", "ochenta", "trescientos", "mil"]
NOTES = (["dinner", "lunch", "rent", "groceries", "the concert tickets", "gas", "the pizza", "movie tickets", "the uber",
          "coffee", "the utilities", "our trip", "the cab", "drinks", "the gift", "books", "the hotel", "babysitting",
          "the electric split", "brunch", "the game tickets", "tuition", "the phone case", "last night", "the rental car"],
         ["the wedding gift", "sushi", "the ski trip", "parking", "the birthday cake", "tacos", "the festival passes",
          "the groceries run", "bowling", "the airbnb"])
NOTES_ES = (["la cena", "el almuerzo", "la renta", "el súper", "las entradas", "la gasolina", "la pizza", "el taxi",
             "el café", "el viaje", "el regalo", "los libros"], ["la boda", "el sushi", "el estacionamiento", "el pastel"])
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"]


def train_date(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(["tomorrow", "today", "tonight", "yesterday", "this week", "next week", "last week", "this month",
                           "next month", "last month", "this year", "last year", "the coming week", "the past month"])
    if r < 0.55:
        return rng.choice(["", "on ", "next ", "this ", "last ", "this coming ", "on ", "by "]) + rng.choice(WEEKDAYS)
    if r < 0.8:
        day = rng.randint(1, 28)
        suffix = "st" if day in (1, 21) else "nd" if day in (2, 22) else "rd" if day in (3, 23) else "th"
        return rng.choice(["on the ", "the ", "on ", "by the "]) + f"{day}{suffix}"
    return rng.choice(["", "on "]) + f"{rng.choice(MONTHS)} {rng.randint(1, 28)}" + rng.choice(["", "th"] if False else [""])


WEEKDAYS_ES = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]


def train_date_es(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(["hoy", "mañana", "ayer", "pasado mañana"])
    if r < 0.65:
        return rng.choice(["el ", "el próximo ", "este ", ""]) + rng.choice(WEEKDAYS_ES) + rng.choice(["", "", " pasado"])
    return rng.choice(["esta semana", "la semana pasada", "la próxima semana", "la semana que viene", "este mes",
                       "el mes pasado", "el próximo mes", "el mes que viene", "este año", "el año pasado"])


DATES = (["tomorrow", "today", "next friday", "on monday", "on the 15th", "this week", "next week", "last month", "this month",
          "yesterday", "last week", "on friday", "march 3", "tonight", "on the 1st", "next month", "last friday", "on june 20"],
         ["on tuesday", "next thursday", "on the 20th", "this coming week", "the past week", "on april 9", "last monday",
          "sunday"])
DATES_ES = (["mañana", "hoy", "el viernes", "el lunes", "la próxima semana", "este mes", "ayer", "el mes pasado"],
            ["el martes", "esta semana", "la semana pasada", "pasado mañana"])
ACCOUNTS = (["checking", "savings", "checking account", "savings account", "credit card", "debit card", "joint account",
             "money market account", "brokerage account", "vacation fund", "emergency fund", "business account",
             "travel card", "visa", "chase account", "ira"],
            ["rainy day fund", "main account", "high yield savings", "college fund", "amex card", "household account"])
ACCOUNTS_ES = (["cheques", "ahorros", "cuenta de ahorros", "cuenta corriente", "tarjeta de crédito", "tarjeta de débito",
                "cuenta de nómina"], ["cuenta de inversión", "fondo de emergencia"])
METHODS = (["debit card", "credit card", "app balance", "bank account", "checking account", "visa", "venmo balance",
            "paypal balance", "savings"], ["mastercard", "wallet balance", "cash app balance"])
ORGS = (["the electric company", "comcast", "verizon", "at&t", "the water company", "city water", "xfinity", "spectrum",
         "duke energy", "t-mobile", "state farm", "geico", "pg&e", "con edison", "sprint", "the gas company",
         "national grid", "directv", "progressive", "the city", "sallie mae", "dish network"],
        ["cox", "allstate", "southern california edison", "frontier", "metro water district", "navient"])
ORGS_ES = (["la compañía de luz", "telmex", "iberdrola", "movistar", "endesa", "la compañía de agua", "naturgy"],
           ["telcel", "izzi", "totalplay"])
BANKS = (["chase", "wells fargo", "bank of america", "citi", "amex", "capital one", "discover", "usaa"],
         ["pnc", "ally", "td bank", "us bank"])
KINDS = (["electric", "electricity", "water", "phone", "cable", "internet", "gas", "rent", "mortgage", "credit card",
          "insurance", "tuition", "utility", "trash", "student loan", "car loan", "power", "sewer", "wifi", "utilities",
          "cell phone", "garbage", "recycling", "tv", "mobile", "light", "car insurance", "home insurance"],
         ["sewer", "wifi", "utilities", "cell phone"])
KINDS_ES = (["luz", "agua", "teléfono", "internet", "gas", "alquiler", "renta", "hipoteca"], ["electricidad", "celular"])

OPEN = (["", "", "", "", "please ", "can you ", "could you ", "i want to ", "i need to ", "i'd like to ", "help me ", "hey, ",
         "go ahead and ", "i wanna ", "would you ", "i would like to ", "hi, can you ", "so i need to ", "um ", "ok ",
         "i'd like you to ", "could you please ", "hey assistant, "],
        ["", "", "can you please ", "i'd love to ", "okay so ", "hi there, i need to ", "would it be possible to ",
         "yo, ", "i have to ", "alright, "])
OPEN_ES = (["", "", "por favor ", "quiero ", "necesito ", "¿puedes ", "me gustaría ", "hola, ", "oye, "],
           ["", "¿podrías ", "quisiera ", "hola, necesito "])
END = (["", "", "", "", " please", " now", " thanks", " asap", " right away", " today please"],
       ["", "", " thank you", " if you can", " real quick"])

T = {}  # intent -> (train templates, dev templates)
T["send_payment"] = ([
    "{open}send {A} to {P}{end}", "{open}send {P} {A}{end}", "{open}pay {P} {A}{end}", "{open}pay {A} to {P}{end}",
    "{open}(make|do|set up) a payment to {P}{end}", "{open}(make|send) a payment of {A} to {P}{end}",
    "{open}give {P} {A}{end}", "{open}transfer {A} to {P}{end}", "{open}venmo {P} {A}{end}", "{open}zelle {P} {A}{end}",
    "{open}send money to {P}{end}", "{open}send some money to {P}{end}", "{open}pay {P} back{end}",
    "{open}pay {P} back {A}{end}", "{open}pay back {P}{end}", "{open}send {P} {A} for {N}{end}",
    "{open}send {A} to {P} for {N}{end}", "{open}pay {P} {A} for {N}{end}", "i owe {P} {A}, (send|pay) it{end}",
    "i owe {P} {A}{end}", "{open}send {A} to {P} {D}{end}", "{open}pay {P} {A} {D}{end}",
    "{open}send {A} to {P} from my {M}{end}", "{open}pay {P} {A} (using|with) my {M}{end}",
    "{open}send {P} {A} (privately|in private|publicly){end}", "{open}send {A} to {P} and make it (private|public)",
    "{open}(split|split the bill|split the check) with {P} and send (them|him|her) {A}{end}",
    "{open}send {A} to {Pposs} {T}{end}", "{open}transfer {A} to {Pposs} {T}{end}",
    "{open}move {A} to {Pposs} account{end}", "{open}make a money transfer to {P}{end}",
    "{open}send a payment to {P}{end}", "{open}initiate a payment to {P} for {A}{end}",
    "{open}(reimburse|repay) {P} {A}{end}", "{open}(reimburse|repay) {P} for {N}{end}", "{open}tip {P} {A}{end}",
    "{open}wire {A} to {P}{end}", "{open}send {P} the {A} i owe (him|her|them){end}",
    "{open}send my share of {N} to {P}{end}", "{open}cover {P} {A} for {N}{end}", "{P} needs {A}, send it{end}",
    "{open}send cash to {P}{end}", "{open}pay my {R}{end}", "{open}send {A}{end}", "{open}make a payment{end}",
    "i need to pay someone{end}", "{open}send money{end}", "{open}pay {P}{end}",
    "{open}(can|could) i send {A} to {P}{end}", "i want to pay {P} for {N}{end}",
    "{open}make a payment to {P} from my {M}{end}", "{open}pay {P} {A} from my {M}{end}",
    "{open}send {P} money for {N}{end}", "i'd like to pay {P} {A}{end}",
    "{open}give {A} to {P} for {N}{end}", "{open}shoot {P} {A}{end}", "{open}send {P} back the {A}{end}",
    "{open}pay {P} for {N}{end}", "i need to send {P} some money{end}", "{open}send {P} some cash for {N}{end}",
    "{open}pass {A} to {P}{end}", "{open}send a transfer of {A} to {P}{end}", "{open}make a {A} payment to {P}{end}",
    "{open}process a payment to {P}{end}", "{open}complete a payment of {A} to {P}{end}", "{open}send {A} over to {P}{end}",
    "{open}deposit {A} into {Pposs} account{end}", "{open}send {P} what i owe (him|her|them){end}",
    "{open}let {P} have {A}{end}", "{open}pay {P} for the {N}{end}", "{open}settle my debt with {P}{end}",
    "{open}clear what i owe {P}{end}", "{open}square up with {P}{end}", "{open}send {P} {A} (via|through|on) (venmo|zelle|paypal){end}",
    "{open}pay {P} using my {M}{end}", "i'd like to make a payment of {A}{end}", "{open}help me make a payment to {P}{end}",
    "i need to make a payment{end}", "{open}send {P} the money for {N}{end}", "{open}pay {A} to my {R}{end}",
    "{open}send my {R} {A}{end}", "{open}transfer {A} to {P} for {N}{end}", "{open}pay {P} the {A} for {N}{end}",
    "{open}send a {A} payment to {P} (privately|publicly){end}", "{open}pay my share of {N} to {P}{end}",
], [
    "{open}get {A} over to {P}{end}", "i have to pay {P} {A} for {N}{end}", "{open}please settle up with {P}, {A}{end}",
    "{open}transfer some money to {P}{end}", "{open}put through a {A} payment to {P}{end}",
    "i'm paying {P} {A} for {N}{end}", "{open}hand {P} {A}{end}", "{open}pay {P} what i owe, {A}{end}",
    "{open}send {P} a payment from my {M}{end}", "{open}start a payment to {P}{end}",
    "{open}send over {A} to {P} {D}{end}", "i want to make a payment of {A} to {P}{end}",
    "{open}could you get {P} paid {A}{end}", "{open}fire off {A} to {P}{end}",
])
T["request_payment"] = ([
    "{open}request {A} from {P}{end}", "{open}ask {P} for {A}{end}", "{open}request money from {P}{end}",
    "{open}request {A} from {P} for {N}{end}", "{open}ask {P} to pay me {A}{end}", "{open}ask {P} to pay me back{end}",
    "{open}ask {P} for the {A} (he|she|they) owes me{end}", "{open}charge {P} {A}{end}", "{open}charge {P} {A} for {N}{end}",
    "{open}bill {P} {A} for {N}{end}", "{open}invoice {P} for {A}{end}", "{open}collect {A} from {P}{end}",
    "{open}send a payment request to {P}{end}", "{open}send {P} a request for {A}{end}",
    "{open}(make|create|send) a (payment )request (to|for) {P} (for|of) {A}{end}", "{P} owes me {A}, (request|ask for) it{end}",
    "{P} owes me {A}{end}", "{open}remind {P} to pay me {A}{end}", "{open}request {A} from {P} (privately|publicly){end}",
    "{open}get {A} from {P}{end}", "{open}request a payment from {P}{end}", "{open}request money{end}",
    "{open}request {A}{end}", "{open}ask for money from {P}{end}", "{open}request my share of {N} from {P}{end}",
    "{open}split {N} with {P} and request {A}{end}", "{open}ask {P} to send me {A}{end}",
    "{open}have {P} pay me {A} for {N}{end}", "{open}request {A} from my {R}{end}", "{open}ask my {R} for {A}{end}",
    "{open}request {A} from {P} {D}{end}", "i'm owed {A} by {P}{end}", "{open}request a payment{end}",
    "{open}send {P} a money request{end}", "{open}ask {P} for money{end}", "{open}request {A} for {N}{end}",
    "{open}request that {P} pay me {A}{end}", "{open}ask {P} to pay (their|his|her) share{end}", "{open}ask {P} to pay up{end}",
    "{open}send {P} a bill for {A}{end}", "{open}bill {P} for {N}{end}", "{open}request reimbursement from {P} for {N}{end}",
    "{open}ask {P} to reimburse me {A}{end}", "{open}get my money back from {P}{end}", "{open}ask {P} for the money for {N}{end}",
    "{open}collect my share from {P}{end}", "{open}tell {P} to pay me {A}{end}", "{open}have {P} send me {A}{end}",
    "{open}request a transfer of {A} from {P}{end}", "{open}make a payment request of {A}{end}", "i want to request {A} from {P}{end}",
    "{open}ask {P} to settle up{end}", "{open}request {A} from {P} for {N} (privately|publicly){end}",
    "{open}ask my {R} to pay me back {A}{end}", "{open}request payment of {A} from {P}{end}",
], [
    "i need {P} to send me {A}{end}", "{open}get {P} to pay me back {A}{end}", "{open}put in a request to {P} for {A}{end}",
    "{open}could you request {A} from {P} for {N}{end}", "{open}ping {P} for the {A} for {N}{end}",
    "{open}start a money request to {P}{end}", "i want {P} to pay me {A}{end}",
    "{open}make {P} pay their share of {N}, {A}{end}", "{open}ask {P} to cover {A} for {N}{end}",
])
T["pay_bill"] = ([
    "{open}pay my {K} bill{end}", "{open}pay the {K} bill{end}", "{open}pay {O}{end}", "{open}pay my bill (to|with|at) {O}{end}",
    "{open}pay {A} (to|toward|on) my {K} bill{end}", "{open}pay {A} to {O}{end}", "{open}pay the {K} bill {D}{end}",
    "{open}pay my {O} bill{end}", "{open}pay the minimum on my {K} bill{end}", "{open}pay off my {K} bill{end}",
    "{open}pay the full balance (of|on) my {K} bill{end}", "{open}pay my {K} bill from my {F}{end}",
    "{open}pay my {K} bill (using|with) my {F}{end}", "{open}schedule a payment for my {K} bill {D}{end}",
    "{open}schedule my {O} bill for {D}{end}", "{open}pay the amount due to {O}{end}", "{open}pay my bills{end}",
    "{open}pay a bill{end}", "{open}pay my {K} bill of {A}{end}", "{open}make a payment on my {K} bill{end}",
    "{open}settle the {K} bill{end}", "{open}take care of the {K} bill{end}", "{open}pay {O} {A} {D}{end}",
    "{open}pay this month's {K} bill{end}", "{open}pay the {O} {K} bill{end}", "{open}clear my {O} balance{end}",
    "{open}pay my {K}{end}", "{open}pay the statement balance on my {K} bill{end}", "i need to pay a bill{end}",
    "{open}pay the bill from {O}{end}", "{open}make my {K} payment{end}", "{open}submit payment for my {K} bill{end}",
    "{open}pay off the {O} bill{end}", "{open}make a payment to {O}{end}", "{open}pay my {K} bill for {D}{end}",
    "i need to pay the {K} bill{end}", "{open}pay my {O} account{end}", "{open}pay the balance on my {K} bill{end}",
    "{open}pay {O} the amount due{end}", "{open}pay my {K} bill with {A}{end}", "{open}pay {A} on the {O} bill {D}{end}",
], [
    "{open}get the {K} bill paid{end}", "{open}send {O} what i owe them{end}", "{open}cover my {K} bill {D}{end}",
    "i want to pay off the {O} bill{end}", "{open}pay what's due on my {K}{end}",
    "{open}put {A} toward the {O} bill{end}", "{open}handle the {K} bill payment from my {F}{end}",
])
T["search_for_bills"] = ([
    "when is my {K} bill due{end}", "how much is my {K} bill{end}", "what bills are due {D}{end}", "show my {K} bills{end}",
    "do i have any unpaid bills{end}", "what do i owe {O}{end}", "how much do i owe on my {K} bill{end}",
    "show me my bills from {O}{end}", "list my unpaid bills{end}", "when is the {O} bill due{end}",
    "what's the due date (for|of) my {K} bill{end}", "which bills did i pay {D}{end}", "show my overdue bills{end}",
    "what's my minimum payment on the {K} bill{end}", "find my {K} bill from {D}{end}", "any bills due {D}{end}",
    "{open}show me my bills{end}", "{open}check my {K} bill{end}", "{open}look up my {O} bill{end}",
    "what is the balance on my {K} bill{end}", "did i pay the {K} bill {D}{end}", "how much was my {O} bill {D}{end}",
    "what's due on my {K} bill{end}", "do i owe anything to {O}{end}", "how much is due to {O}{end}",
    "when do i need to pay {O}{end}", "what's the amount due on my {K} bill{end}", "list bills due {D}{end}",
    "{open}tell me when my {K} bill is due{end}", "is the {K} bill paid{end}", "what's the status of my {K} bill{end}",
], [
    "is my {K} bill due soon{end}", "what's outstanding with {O}{end}", "pull up the {K} bill{end}",
    "bills coming up {D}?", "how big is the {O} bill this time{end}", "what's left to pay on my {K} bill{end}",
])
T["transfer_money"] = ([
    "{open}transfer {A} from {F} to {T}{end}", "{open}move {A} from my {F} to my {T}{end}",
    "{open}transfer {A} to my {T}{end}", "{open}move money from my {F} to my {T}{end}",
    "{open}transfer money from {F} to {T}{end}", "{open}put {A} (in|into) my {T}{end}",
    "{open}transfer {A} from my {F} into {T} {D}{end}", "{open}move {A} into {T}{end}",
    "{open}shift {A} from {F} to {T}{end}", "{open}transfer from my {F} to my {T}{end}", "{open}make a transfer{end}",
    "{open}transfer {A} between my accounts{end}", "{open}transfer {A} from {B} to my {T}{end}",
    "{open}move {A} out of {F} and into {T}{end}", "{open}transfer funds to my {T}{end}",
    "{open}top up my {T} with {A} from {F}{end}", "{open}send {A} from my {F} to my {T}{end}",
    "i want to transfer money{end}", "{open}transfer {A}{end}", "{open}make a transfer to my {T}{end}",
    "{open}deposit {A} from {F} into my {T}{end}", "{open}transfer {A} to {T} from {F}{end}",
    "i need to move money into my {T}{end}", "{open}move {A} over to {T}{end}", "{open}put some money into my {T}{end}",
    "{open}transfer the rest of my {F} to {T}{end}", "{open}send {A} to my {T}{end}",
], [
    "{open}shuffle {A} over from {F} to {T}{end}", "i'd like {A} moved into my {T}{end}",
    "{open}take {A} out of {F} and put it in {T}{end}", "{open}fund my {T} with {A}{end}",
    "{open}do a transfer of {A} from my {F}{end}", "{open}pull {A} from {F} into my {T} {D}{end}",
])
T["search_for_accounts"] = ([
    "what's my balance{end}", "what's my {C} balance{end}", "how much (money )?is in my {C}{end}",
    "how much do i have in {C}{end}", "check my {C} balance{end}", "{open}check my balance{end}",
    "{open}show my account balances{end}", "what's the balance (of|on|in) my {C}{end}", "how much is left in my {C}{end}",
    "how much money do i have{end}", "what's my balance at {B}{end}", "how much do i have in my {B} {C}{end}",
    "{open}show my accounts{end}", "how many (points|miles) do i have{end}", "what's my (points|miles) balance{end}",
    "{open}tell me my {C} balance{end}", "what's available in my {C}{end}", "do i have enough in {C}{end}",
    "{open}check my account balance{end}", "{open}look at my {C}{end}", "what accounts do i have{end}",
    "{open}check my balance in {C}{end}", "what's the balance on {C}{end}", "do i have money in my {C}{end}",
    "how much can i spend from {C}{end}", "{open}account balance for {C}{end}", "{open}tell me how much i have{end}",
    "balance please", "{open}what's my available balance{end}",
], [
    "what's sitting in my {C} right now{end}", "how's my {C} looking{end}", "what do i have in {C} at the moment{end}",
    "{open}give me my {C} balance{end}", "how much cash is in {C}{end}", "{open}pull up my balance at {B}{end}",
])
T["search_for_payments"] = ([
    "show my payments to {P}{end}", "did i pay {P} {D}{end}", "what did i send to {P}{end}",
    "show me what i sent to {P}{end}", "{open}show my payments{end}", "{open}list my transactions {D}{end}",
    "what payments did i make {D}{end}", "show my payments from {D}{end}", "did {P} pay me{end}",
    "how much have i paid {P}{end}", "show my pending payments{end}", "{open}find my payment to {P}{end}",
    "show my failed payments{end}", "{open}show my transaction history{end}", "what did {P} send me {D}{end}",
    "{open}search my payments to {P} {D}{end}", "when did i last pay {P}{end}", "have i paid {P} yet{end}",
    "{open}show payments with {P}{end}", "what have i spent {D}{end}", "did i send money to {P}{end}",
    "did i get the money from {P}{end}", "{open}look up payments to {P}{end}",
    "{open}show me payments i sent {D}{end}", "who did i pay {D}{end}", "how much did i send {P}{end}",
    "what did i pay {P} {D}{end}", "{open}show me money i received from {P}{end}", "{open}list my recent payments{end}",
    "{open}show my transfers to {P}{end}", "{open}tell me about my payments to {P}{end}", "have i gotten paid by {P}{end}",
], [
    "have i sent anything to {P} {D}{end}", "what went out to {P}{end}", "{open}pull up my history with {P}{end}",
    "any payments from {P} {D}{end}", "{open}check whether i paid {P}{end}", "what did i pay out {D}{end}",
])
ANSWERS_MORE = ["{P} is the (receiver|recipient)", "{P} will (receive|get) (it|the money)", "the (recipient|receiver) is {P}",
                "it goes to {P}", "give (it )?to {P}", "{A} to {P}", "yes, to {P}", "(send|transfer) it to {P} please",
                "my {R} is the recipient", "{A} (checking|savings) to {P}", "to {P}, {A}"]
ANSWERS = ([
    "{A}", "make it {A}", "{A} please", "to {P}", "{P}", "{P} please", "it's for {P}", "from my {F}", "to my {T}",
    "to {Pposs} {T}", "{D}", "do it {D}", "the {K} bill", "{O}", "send {A}", "send it to {P}", "change it to {A}",
    "actually {A}", "no, {A}", "yes", "yes please", "no", "that's right", "correct", "the first one", "the second one",
    "{C}", "my {C}", "in {C}", "from {F}", "use my {F}", "into {T}", "for {N}", "it's for {N}", "make it {A} to {P}",
], [
    "{A} is fine", "pay {P}", "the one for {P}", "take it from {F}", "{D} works", "put it in {T}", "sure", "nope",
])

# Unrelated requests that look like payments: other things sent, owed, asked for or transferred. Out of scope.
THINGS = (["an email", "a message", "a letter", "flowers", "an invite",
           "the link", "a picture", "the document", "my address", "the report", "a gift card code", "the video",
           "a birthday card", "my regards", "a reminder", "the slides", "my location", "a package", "the contract"],
          ["the pdf", "a meme", "the playlist", "my notes", "a postcard", "the spreadsheet"])
FAVORS = (["a favor", "a beer", "a drink", "a visit", "lunch", "an explanation", "a ride", "a call back",
           "dinner", "big time", "one", "a coffee"], ["a thank you", "a hug", "a new charger"])
OOS_EN = ([
    "{open}send {X} to {P}{end}", "{open}send {P} {X}{end}", "{open}give {P} {X}{end}",
    "{P} owes me {Y}{end}", "i owe {P} {Y}{end}", "{open}ask {P} for {Y}{end}", "{open}ask {P} for advice{end}",
    "{open}transfer {X} to my (phone|drive|tablet|new phone){end}", "{open}transfer my (number|phone number|contacts|photos|files|domain) to {P}{end}",
    "{open}pay attention to {P}{end}",
    "{open}remind me to call {P}{end}", "{open}forward {X} to {P}{end}", "{open}share {X} with {P}{end}",
    "{open}text {P} that i'm running late{end}", "{open}call {P}{end}", "did {P} send me {X}{end}",
    "what did {P} send me{end}", "{open}send {P} a message saying thanks{end}", "{P} paid me a compliment{end}",
    "how do i pay for (a wedding|a car|my kids' school|a house){end}",
    "what's the best way to save money{end}", "{open}book a table for {P} {D}{end}", "{open}tell {P} i said hi{end}",
    "should i lend {P} money{end}", "is it rude to ask {P} for money{end}",
    "{open}set up direct deposit{end}", "{open}order a pizza for {P}{end}", "{open}buy a gift for {P}{end}",
    "{open}transfer the call to {P}{end}", "{P} sent me {X} {D}{end}", "{open}check the weather {D}{end}",
    "{open}schedule a meeting with {P} {D}{end}", "{open}invite {P} to dinner{end}",
], [
    "{open}send {X} over to {P}{end}", "{open}mail {X} to {P}{end}", "{P} owes me {Y} after that{end}",
    "{open}move {X} onto my (usb stick|cloud){end}", "{open}ask {P} for the recipe{end}",
])

TES = {}
TES["send_payment"] = ([
    "{open}envía {A} a {P}{end}", "{open}enviar {A} a {P}{end}", "{open}mándale {A} a {P}{end}", "{open}manda {A} a {P}{end}",
    "{open}págale {A} a {P}{end}", "{open}pagar {A} a {P}{end}", "{open}transfiere {A} a {P}{end}",
    "{open}hacer un pago a {P}{end}", "{open}envía dinero a {P}{end}", "{open}envíale {A} a {P} para {N}{end}",
    "{open}págale a mi {R} {A}{end}", "le debo {A} a {P}, envíaselos{end}", "{open}mandar {A} a {P} {D}{end}",
    "{open}envía un pago a {P}{end}", "{open}pagarle a {P}{end}", "{open}enviar dinero{end}",
], [
    "{open}hazle llegar {A} a {P}{end}", "{open}deposítale {A} a {P}{end}", "{open}mándale dinero a {P} para {N}{end}",
])
TES["request_payment"] = ([
    "{open}pídele {A} a {P}{end}", "{open}solicita {A} a {P}{end}", "{open}pedirle {A} a {P} para {N}{end}",
    "{open}cóbrale {A} a {P}{end}", "{open}cobrarle a {P} {A}{end}", "{P} me debe {A}, pídeselos{end}",
    "{open}solicitar un pago a {P}{end}", "{open}pedir dinero a {P}{end}", "{open}envía una solicitud de pago a {P}{end}",
    "{open}pídele a mi {R} que me pague {A}{end}",
], [
    "{open}reclámale {A} a {P}{end}", "{open}que {P} me pague {A}{end}", "{open}solicítale dinero a {P} para {N}{end}",
])
TES["pay_bill"] = ([
    "{open}paga mi factura de {K}{end}", "{open}pagar la factura de {K}{end}", "{open}paga el recibo de {K}{end}",
    "{open}paga {O}{end}", "{open}paga {A} de la factura de {K}{end}", "{open}pagar mi recibo de {O}{end}",
    "{open}paga la factura de {K} {D}{end}", "{open}paga el mínimo de mi factura de {K}{end}", "{open}pagar mis facturas{end}",
    "{open}paga la {K}{end}",
], [
    "{open}liquida la factura de {K}{end}", "{open}cubre el recibo de {O}{end}", "{open}salda mi factura de {K} {D}{end}",
])
TES["search_for_bills"] = ([
    "¿cuándo vence mi factura de {K}?", "¿cuánto debo de {K}?", "muéstrame mis facturas{end}",
    "¿qué facturas vencen {D}?", "¿tengo facturas pendientes?", "¿cuánto es mi recibo de {O}?",
    "ver mis facturas de {K}{end}", "¿cuál es la fecha límite de mi factura de {K}?",
], [
    "¿qué recibos tengo por pagar?", "¿para cuándo es la factura de {O}?", "enséñame las facturas de {D}{end}",
])
TES["transfer_money"] = ([
    "{open}transfiere {A} de {F} a {T}{end}", "{open}transferir {A} de mi {F} a mi {T}{end}",
    "{open}mueve {A} de {F} a {T}{end}", "{open}pasa {A} de mi {F} a mi {T}{end}", "{open}transfiere dinero a mi {T}{end}",
    "{open}hacer una transferencia{end}", "{open}pon {A} en mi {T}{end}", "{open}transferir {A} a {T} {D}{end}",
], [
    "{open}traspasa {A} de {F} a {T}{end}", "{open}manda {A} de mi {F} a mi {T}{end}", "{open}deposita {A} en {T}{end}",
])
TES["search_for_accounts"] = ([
    "¿cuál es mi saldo?", "¿cuánto tengo en mi {C}?", "¿cuánto dinero tengo?", "consulta mi saldo{end}",
    "muéstrame el saldo de mi {C}{end}", "¿cuál es el saldo de mi {C}?", "ver mis cuentas{end}", "saldo de {C}{end}",
    "¿cuántos puntos tengo?", "{open}revisar mi saldo{end}",
], [
    "¿cuánta plata tengo en {C}?", "dime mi saldo en {B}{end}", "¿qué saldo hay en mi {C}?",
])
TES["search_for_payments"] = ([
    "muéstrame mis pagos a {P}{end}", "¿le pagué a {P} {D}?", "¿qué le envié a {P}?", "ver mis pagos{end}",
    "mis transacciones de {D}{end}", "¿cuánto le he pagado a {P}?", "¿me pagó {P}?", "busca mis pagos a {P}{end}",
    "muéstrame mis pagos pendientes{end}",
], [
    "¿ya le mandé dinero a {P}?", "historial de pagos con {P}{end}", "¿qué pagos hice {D}?",
])
TES["out_of_scope"] = ([
    "¿qué tiempo hace {D}?", "pon música de {P}{end}", "pon una alarma para {D}{end}", "cuéntame un chiste{end}",
    "¿cómo se dice hola en francés?", "¿cuánto cuesta un café?", "llama a {P}{end}", "envía un mensaje a {P}{end}",
    "¿dónde está el restaurante más cercano?", "reserva una mesa para dos{end}", "¿qué hora es?",
    "manda un correo a {P}{end}", "¿cuál es la capital de francia?", "recuérdame comprar leche{end}",
    "¿cuántas calorías tiene una manzana?", "apaga las luces{end}", "busca vuelos a madrid{end}",
    "¿cómo pago mis impuestos?", "¿qué es un banco?", "{P} me envió un mensaje{end}", "¿qué películas hay {D}?",
    "agrega huevos a la lista de compras{end}", "¿cuánto mide la torre eiffel?", "traduce esto al inglés{end}",
    "quiero ver una película{end}", "¿quién ganó el partido?", "envíale una foto a {P}{end}",
], [
    "¿va a llover {D}?", "pon la radio{end}", "escríbele a {P} que llego tarde{end}", "¿cómo llego al aeropuerto?",
    "dime una receta de paella{end}", "¿cuántos años tiene {P}?", "¿qué significa saldo a favor?",
])


# More phrasings for training only (the dev templates above stay separate).
T["send_payment"][0].extend([
    "{open}(shoot|send|zap|beam) {P} some money{end}", "{open}send {P} money for {N}{end}", "{open}pay {P} what i owe (him|her|them){end}",
    "{open}send the {A} i owe to {P}{end}", "i gotta pay {P}{end}", "need to pay {P} {A}{end}", "{open}send {A} my {R}'s way{end}",
    "{open}transfer {A} over to {P}{end}", "{open}pay {P} back for {N}{end}", "{open}give {P} (the|their|his|her) {A} back{end}",
    "money to {P}, {A}{end}", "{A} to {P}{end}", "{A} to {P} for {N}{end}", "{open}send {P} a payment of {A}{end}",
    "{open}make a payment of {A} to {P} from my {M}{end}", "{open}pay {P} from my {M}{end}", "let's pay {P} {A}{end}",
    "{open}pay {P} their share{end}", "{open}cover {P} for {N}{end}", "{open}pay {P} for {N} with my {M}{end}",
    "i'd like to send money to {P}{end}", "{open}put {A} in {Pposs} account{end}", "{open}send a quick {A} to {P}{end}",
    "{open}refund {P} {A}{end}", "{open}send {P} their money{end}", "{open}pay {P} for {N} {D}{end}",
    "{open}make a transfer of {A} to {P}{end}", "{open}send {P} {A} using (venmo|zelle|paypal|cash app){end}",
    "{open}pay {P} through the app{end}", "{open}send a private payment to {P}{end}",
    "{open}send money to {Pposs} (checking|savings) account{end}", "{open}pay {P} {A} for the {N} we had{end}",
])
T["request_payment"][0].extend([
    "{open}ask {P} for {A} please", "i need {A} from {P}{end}", "{open}request the {A} {P} owes me{end}",
    "{P} still owes me {A}{end}", "{open}ask for {A} from {P}{end}", "{open}request money from {P} for {N}{end}",
    "{open}send {P} a request for the {N} money{end}", "{open}request that {P} pays {A}{end}", "i want my {A} back from {P}{end}",
    "{open}ask {P} for (the|my) money back{end}", "{open}request payment from {P}{end}", "{open}bill {P} {A}{end}",
    "{open}charge {P} for {N}{end}", "{open}collect money from {P}{end}", "{open}ask {P} to transfer me {A}{end}",
    "{open}ask {P} to venmo me {A}{end}", "{open}request {A} (via|through) (venmo|zelle|paypal) from {P}{end}",
    "{open}ask {P} to chip in {A} for {N}{end}", "{open}have {P} reimburse me for {N}{end}", "{open}request {A} from {P} and {P}{end}",
])
T["pay_bill"][0].extend([
    "i want to pay my {K} bill{end}", "{open}pay my {K} bill in full{end}", "{open}pay the remaining balance on my {K} bill{end}",
    "{open}make the minimum payment on my {K}{end}", "{open}pay my {K} bill on time{end}", "{open}set up a payment for {O}{end}",
    "{open}pay the bill to {O} from {F}{end}", "{open}pay what i owe on my {K} bill{end}", "{open}pay this {K} bill now{end}",
    "{open}pay {A} to my {K} company{end}", "{open}pay the {K} company{end}", "{open}use my {F} to pay the {K} bill{end}",
    "{open}pay for my {K}{end}", "{open}pay the {K} invoice{end}", "{open}send {A} to {O} for my {K} bill{end}",
    "{open}pay my {O} bill {D}{end}", "{open}pay {O} in full{end}",
])
T["search_for_bills"][0].extend([
    "how much do i owe {O}{end}", "what's my {K} bill this month{end}", "when's the {K} bill due{end}", "{open}show unpaid bills{end}",
    "{open}find my bills due {D}{end}", "what's the minimum due on my {K}{end}", "what bills do i have{end}",
    "{open}find any bills i haven't paid{end}", "how much is due on my {O} account{end}", "what's the total on my {K} bill{end}",
    "when is the next {K} payment due{end}", "{open}tell me what i owe for {K}{end}", "is my {O} bill paid{end}",
    "have i paid the {K} bill{end}", "what's the deadline for the {O} bill{end}", "{open}check if my {K} bill is overdue{end}",
    "{open}bills due {D}{end}", "what is the lowest payment i can make on my {K} bill{end}", "how much was the {K} bill{end}",
])
T["search_for_payments"][0].extend([
    "what have i paid {P}{end}", "{open}payments to {P}{end}", "{open}see what i paid {P} {D}{end}", "did i already pay {P}{end}",
    "did my payment to {P} go through{end}", "has {P} paid me back{end}", "did {P} pay me back {D}{end}",
    "how much did {P} send me{end}", "how much have i sent {P} {D}{end}", "{open}history of payments with {P}{end}",
    "{open}show me everything i sent {D}{end}", "{open}find payments from {P}{end}", "{open}show my payment history with {P}{end}",
    "what payments are pending{end}", "{open}what did i send {D}{end}", "{open}list money i sent to {P}{end}",
    "{open}show transactions with {P}{end}", "when did {P} last pay me{end}", "did the money reach {P}{end}",
    "have i received anything from {P}{end}", "{open}show incoming payments {D}{end}", "{open}show outgoing payments {D}{end}",
    "{open}show the purchases on my {C} {D}{end}", "what did i spend on my {C} {D}{end}",
])
T["search_for_accounts"][0].extend([
    "how much do i have{end}", "what's in my {C}{end}", "{open}check {C}{end}", "what's my {C} at{end}",
    "is there money in my {C}{end}", "what's the current balance of my {C}{end}", "how much money is left{end}",
    "{open}show me my {C}{end}", "{open}get my balance{end}", "{open}balance of my {C}{end}", "do i have at least {A} in {C}{end}",
    "can i afford {A} from my {C}{end}", "what's my {B} balance{end}", "how much have i got in {C}{end}", "my {C} balance{end}",
    "{C} balance{end}", "is my {C} balance enough for {N}{end}",
])
T["transfer_money"][0].extend([
    "{open}move some money to {T}{end}", "{open}send money from {F} to {T}{end}", "{open}transfer between {F} and {T}{end}",
    "i'd like to transfer {A} from {F}{end}", "{open}transfer {A} out of {F}{end}", "{open}move {A} to {T} {D}{end}",
    "{open}withdraw {A} from {F} into {T}{end}", "{open}put {A} from my {F} into {T}{end}", "{open}make an internal transfer of {A}{end}",
    "{open}transfer everything from {F} to {T}{end}", "{open}add {A} to my {T} from {F}{end}",
])
# Statements, reports, habits, offers, advice questions and other people's actions: payment words, no request.
OOS_EN[0].extend([
    "i (always|usually|normally) (send|pay|give) {P} {A} (every|each) (month|week|friday){end}",
    "(he|she|they) (always|usually|never) (pays|sends|gives) {P} {A}{end}",
    "i (could|can|might|will) (pay|send|give) you {A} (later|tomorrow|next week){end}",
    "i (hate|love|dislike|can't stand) (paying|sending|transferring) (bills|money|taxes|rent){end}",
    "i (forgot|remembered) to (pay|send) {P} {D}{end}", "i (forgot|remembered) to pay the {K} bill {D}{end}",
    "(should|could|would) i (move|transfer|send|put) money (to|into) {T}{end}", "is it smart to (move|put) money (in|into) {T}{end}",
    "how do (i|you|people) (send|transfer|wire) money (abroad|overseas|internationally){end}",
    "my (boss|landlord|friend|neighbor) (won't|will not|didn't) (pay|give|send) {A} to {P}{end}",
    "(never|don't|do not) (send|pay|transfer) {A} to {P}{end}", "i (don't|do not) want to (pay|send) {P} {A}{end}",
    "(go|drive) to (the store|walmart|target|costco) and (pay|spend) {A} (for|on) (gas|milk|groceries){end}",
    "(pay|spend) {A} to (enter|park|get into) the (museum|zoo|garage|club){end}",
    "(pay|give) (close|careful|more) attention to (the|my) (news|lecture|teacher|road){end}",
])
OOS_EN[1].extend([
    "(she|he) (sends|pays) {P} {A} (every|each) month{end}",
    "i (won't|will not) (pay|send) {P} anything{end}", "is it wise to (transfer|move) {A} to {T}{end}",
])
OOS_EN[0].extend([
    "what's the weather (like )?in {L} {D}{end}", "(find|show) me (a restaurant|restaurants|a hotel|flights|a bus|a cab) (in|to|near) {L}{end}",
    "{open}book a (table|room|flight|train) (in|at|to) {L}{end}", "how far is {L} from here{end}", "{open}get me a ride to {L}{end}",
    "i want to (go|fly|drive) to {L} {D}{end}", "(thanks|thank you|great)(.|,|!) what's the forecast for {L}{end}",
    "{open}play (songs|music|something) by {P}{end}", "{open}find a movie with {P}{end}", "{open}buy (2|two|4) tickets for {P}{end}",
    "which (banks|credit unions) have the best (money market|student|high yield|kids) accounts{end}", "how do i open a (savings|checking) account{end}",
    "what is a (savings|checking|money market) account{end}", "which credit card has the best rewards{end}",
    "what's the interest rate on savings accounts{end}", "how does a balance transfer work{end}", "how much is {A} in (euros|pesos|yen){end}",
    "convert {A} to (euros|pesos|pounds){end}", "how much should i tip on {A}{end}", "what's 20 percent of {A}{end}",
    "split {A} (three|four) ways{end}", "how is the balance of (trade|nature) (with|in) (europe|asia|the ocean){end}",
    "{open}balance the (tires|budget spreadsheet|equation){end}", "{open}pay (a song|the radio|my playlist) on shuffle{end}",
    "what's my credit score{end}", "{open}freeze my (card|account){end}", "{open}report my card stolen{end}",
    "{open}change my pin{end}", "{open}send {P} a (text|message|email) about {N}{end}", "{open}ask {P} about {N}{end}",
    "{open}remind {P} about {N}{end}", "{P} owes me nothing{end}", "i don't owe {P} anything{end}",
])
OPEN[0].extend(["hey can you ", "i'd like to go ahead and ", "could you help me ", "quick one, ", "please could you ", "i was hoping to ",
                "hi there, ", "hello, ", "excuse me, can you ", "if possible, ", "i gotta ", "let me ", "time to ", "i'm trying to ",
                "i think i need to ", "assistant, ", "can we "])
END[0].extend([" for me", " when you can", " please and thank you", " thx", " quickly"])
TES["send_payment"][0].extend([
    "{open}manda dinero a {P}{end}", "{open}hazle un pago a {P} de {A}{end}", "{open}envíale a {P} {A}{end}",
    "{open}págale a {P} lo que le debo{end}", "{open}transfiérele {A} a {P}{end}", "{open}mándale a mi {R} {A}{end}",
    "{open}envía {A} a {P} desde mi {F}{end}", "quiero pagarle {A} a {P}{end}", "{open}págale {A} a {P} por {N}{end}",
])
TES["request_payment"][0].extend([
    "{open}pídele dinero a {P}{end}", "{open}cóbrale a {P} {A} por {N}{end}", "{open}pide {A} a {P}{end}",
    "{open}solicítale {A} a mi {R}{end}", "{open}dile a {P} que me pague {A}{end}", "{open}pedirle a {P} el dinero de {N}{end}",
])
TES["pay_bill"][0].extend([
    "{open}paga el recibo de la {K}{end}", "{open}paga la cuenta de {K}{end}", "quiero pagar la factura de {O}{end}",
    "{open}paga {A} a {O}{end}", "{open}paga mi recibo de {K} con mi {F}{end}", "{open}programa el pago de la {K} para {D}{end}",
])
TES["search_for_bills"][0].extend([
    "¿cuánto debo en la factura de {K}?", "¿cuándo tengo que pagar {O}?", "¿cuál es el monto de mi recibo de {K}?",
    "muéstrame las facturas pendientes{end}", "¿ya pagué la factura de {K}?", "¿qué debo pagar {D}?",
])
TES["transfer_money"][0].extend([
    "{open}transfiere {A} a mi {T}{end}", "{open}mueve dinero de {F} a {T}{end}", "{open}pásame {A} de {F} a {T}{end}",
    "{open}haz una transferencia de {A} de {F} a {T}{end}", "quiero transferir {A} a {T}{end}", "{open}envía {A} de mis {F} a mis {T}{end}",
])
TES["search_for_accounts"][0].extend([
    "¿cuánto dinero hay en mi {C}?", "¿qué saldo tengo en {C}?", "dime cuánto tengo{end}", "¿cuál es el saldo disponible?",
    "muéstrame mis saldos{end}", "¿tengo suficiente en {C}?", "saldo{end}", "¿cuántas millas tengo?",
])
TES["search_for_payments"][0].extend([
    "¿a quién le pagué {D}?", "muéstrame lo que le envié a {P}{end}", "¿cuánto me envió {P}?", "¿ya me pagó {P}?",
    "mis pagos de {D}{end}", "historial de pagos{end}", "¿qué pagos tengo pendientes?", "busca los pagos de {P}{end}",
])
TES["out_of_scope"][0].extend([
    "manda una foto a {P}{end}", "pásame la sal{end}", "transfiere la llamada a {P}{end}", "{P} me debe un favor{end}",
    "pídele a {P} que me llame{end}", "¿cuál es el saldo de la deuda nacional?", "¿qué es una cuenta de ahorros?",
    "¿cuál es el mejor banco?", "abre la app del banco{end}", "cambia mi contraseña{end}", "bloquea mi tarjeta{end}",
    "¿a cuánto está el dólar?", "convierte {A} a euros{end}", "¿cuánto es el 15 por ciento de {A}?",
])


# A Spanish transfer that names no one ("quiero hacer una transferencia") is either intent, as SGD's English ones are
# counted half for each: the same phrasings train both, so the model splits its probability and the dialog asks
# where the money goes (issue 31; before, they trained transfer_money alone and the dialog never asked).
UNNAMED_TRANSFER_ES = ["{open}hacer una transferencia{end}", "quiero hacer una transferencia{end}",
                       "{open}haz una transferencia{end}", "necesito hacer una transferencia{end}",
                       "{open}(quiero|necesito) transferir dinero{end}", "{open}una transferencia, por favor"]
TES["send_payment"][0].extend(UNNAMED_TRANSFER_ES)
TES["transfer_money"][0].extend(UNNAMED_TRANSFER_ES)


# Frames crossed with word lists (scripts/understanding_grammar.py), for training only, weighted so that their
# variety is sampled more often than a single flat sentence.
GRAMMAR_WEIGHT = 3
for intent, templates in grammar.english().items():
    (OOS_EN if intent == "out_of_scope" else T[intent])[0].extend(templates * GRAMMAR_WEIGHT)
for intent, templates in grammar.spanish().items():
    TES[intent][0].extend(templates * GRAMMAR_WEIGHT)


# Unrelated look-alikes around "transferir" / "pasar" / "mover" in their other senses (issue 31, new-user trials: files,
# photos and data moved to the cloud or another device, a phone number moved to another carrier, a person moving to
# another school), as broad classes crossed from word lists, never a sentence seen in a trial or a dev file. Written
# after every other line, each file with its own generator (TRANSFER_LOOKALIKE_SEED), so the lines before are unchanged.
# Measured, not in the data yet (counts 0; docs/understanding-history.md, issue 31 seventh pass): at 300 Spanish and 150
# English lines they keep all ten held-out Spanish file and data transfers out (7 of 10 taken before) and lower the
# Spanish false accepts, but cost a line of CLINC150 val and of independent Spanish in scope (under its floor).
DATA_ES = ["mis fotos", "las fotos", "mis archivos", "los archivos", "mis documentos", "mis contactos", "mi música",
           "mis videos", "mis datos", "mis chats", "mis mensajes de whatsapp", "la información", "mis notas",
           "mis correos", "la copia de seguridad", "mis canciones", "mi lista de reproducción", "las fotos del viaje",
           "los documentos del trabajo", "mis apps", "el archivo", "la carpeta", "mis películas"]
PLACES_ES = ["la nube", "google drive", "dropbox", "icloud", "mi computadora", "mi laptop", "la computadora",
             "el disco duro", "un disco externo", "una memoria usb", "mi teléfono nuevo", "otro celular", "mi tableta",
             "mi correo", "la tarjeta sd", "el otro teléfono", "mi iphone", "mi android", "la tele", "la impresora"]


def to_place(place, question=False):
    """ "a la nube", "al disco duro" (and "?" on each choice of a question: a "?" after a group makes it optional)."""
    said = "al " + place[3:] if place.startswith("el ") else "a " + place
    return said + ("?" if question else "")


def from_place(place):
    return "del " + place[3:] if place.startswith("el ") else "de " + place


def alts(words):
    return "(" + "|".join(words) + ")"


MOVE_ES = ["transferir", "pasar", "mover", "subir", "copiar", "enviar", "mandar", "respaldar", "sincronizar"]
MOVE_ES_ORDER = ["transfiere", "pasa", "mueve", "sube", "copia", "manda", "envía", "respalda"]
MOVE_ES_HOW = ["transfiero", "paso", "muevo", "subo", "copio", "mando", "envío", "respaldo"]
WANT_ES = ["quiero", "necesito", "tengo que", "me gustaría", "quisiera", "ayúdame a", "¿puedes", "hay que", "oye, quiero"]
PLEASE_ES = "(por favor |oye, |hola, )?"
TRANSFER_LOOKALIKES_ES = [
    alts(WANT_ES) + " " + alts(MOVE_ES) + " " + alts(DATA_ES) + " " + alts([to_place(p) for p in PLACES_ES]) + "{end}",
    PLEASE_ES + alts(MOVE_ES_ORDER) + " " + alts(DATA_ES) + " " + alts([to_place(p) for p in PLACES_ES]) + "{end}",
    "¿cómo " + alts(MOVE_ES_HOW) + " " + alts(DATA_ES) + " " + alts([to_place(p, True) for p in PLACES_ES]),
    alts(WANT_ES) + " (transferir|pasar|mover) " + alts(DATA_ES) + " " + alts([from_place(p) for p in PLACES_ES]) + " " + alts([to_place(p) for p in PLACES_ES]) + "{end}",
    "(quiero|necesito|me gustaría) (transferir|pasar|cambiar|portar) mi (número|línea|plan|contrato|servicio de internet) a (otra compañía|otro operador|otra persona|otra empresa){end}",
    "(quiero|necesito|me gustaría|voy a) (transferirme|cambiarme|pasarme) a (otra|una nueva) (universidad|escuela|carrera|oficina|ciudad|facultad|sede){end}",
    "(quiero|necesito) (hacer|pedir) (una|mi) transferencia de (universidad|escuela|carrera|créditos|materias|sede){end}",
    PLEASE_ES + "(transfiere|pasa|desvía) (la llamada|esta llamada|las llamadas) a (recepción|soporte técnico|mi jefe|mi oficina|{P}|mi celular){end}",
    PLEASE_ES + "(transfiere|pasa|manda) (la conversación|el caso|mi solicitud|el chat) a (un agente|otra persona|un supervisor|{P}){end}",
    "¿(se pueden|puedo) (transferir|pasar) " + alts(DATA_ES) + " " + alts([to_place(p, True) for p in PLACES_ES]),
    alts(WANT_ES) + " transferir (la cuenta de|mi perfil de|mis puntos de|mi partida de) (netflix|spotify|instagram|un juego|minecraft|la consola){end}",
]
DATA_EN = ["my photos", "the photos", "my files", "the files", "my documents", "my contacts", "my music", "my videos",
           "my data", "my chats", "the whatsapp messages", "the backup", "my notes", "my playlist", "the folder"]
PLACES_EN = ["the cloud", "google drive", "dropbox", "icloud", "my computer", "my laptop", "the hard drive",
             "an external drive", "a usb stick", "my new phone", "another phone", "my tablet", "the sd card"]
TRANSFER_LOOKALIKES_EN = [
    "{open}(transfer|move|copy|upload|sync|back up|send) (" + "|".join(DATA_EN) + ") (to|onto) (" + "|".join(PLACES_EN) + "){end}",
    "how (do|can) i (transfer|move|copy|send) " + alts(DATA_EN) + " (to|onto) " + alts([p + "?" for p in PLACES_EN]),
    "{open}(transfer|port|move) my (number|phone number|line|plan) to (another carrier|a new carrier|another company){end}",
    "{open}(i want to|i need to|i'd like to) transfer to (another|a different|a new) (school|university|college|office|team|campus){end}",
    "{open}transfer (the|this) (call|chat|case) to (an agent|a supervisor|the front desk|support|{P}){end}",
]
TRANSFER_LOOKALIKE_SEED = 20
TRANSFER_LOOKALIKE_COUNT = {"train-es.jsonl": 0, "train-en.jsonl": 0}  # measured at 300 and 150


def pick(rng, values):
    return rng.choice(values)


def expand(template, rng):
    """Chooses among (a|b) alternatives and keeps [optional] parts half the time."""
    pattern = re.compile(r"\(([^()]*)\)(\?)?")
    while True:
        match = pattern.search(template)
        if not match:
            return template
        choices = match.group(1).split("|")
        chosen = "" if match.group(2) and rng.random() < 0.5 else rng.choice(choices)
        template = template[:match.start()] + chosen + template[match.end():]


def typo(word, rng):
    if len(word) < 4 or not word.isalpha():
        return word
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1:]
    if kind == 1:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + word[i] + word[i:]


class Writer:
    def __init__(self, rng, part, spanish, values):
        self.rng, self.part, self.es, self.values = rng, part, spanish, values

    def person(self, pools):
        rng = self.rng
        given, surnames = pools
        r = rng.random()
        family = FAMILY_ES if self.es else FAMILY
        if r < 0.15:
            return [("mi " if self.es else "my ", None), (rng.choice(family), "person")]
        name = rng.choice(given)
        if r < 0.2:  # "my friend Amelia": the name is the person
            return [(("mi " if self.es else "my ") + rng.choice(family) + " ", None), (name, "person")]
        if r < 0.4:
            name += " " + rng.choice(surnames)
        return [(name, "person")]

    def amount(self):
        rng = self.rng
        n = rng.choice([5, 10, 12, 15, 20, 25, 30, 40, 45, 50, 60, 75, 80, 100, 120, 150, 200, 250, 300, 400, 500, 750,
                        1000, 1200, 1500, 2000, 2500, rng.randint(1, 3000), rng.randint(1, 300)])
        cents = rng.random() < 0.15
        digits = f"{n:,}" if n >= 1000 and rng.random() < 0.6 else str(n)
        if cents:
            digits += f".{rng.randint(1, 99):02d}"
        r = rng.random()
        if self.es:
            forms = [f"{digits} dólares", f"${digits}", f"{digits} euros", f"{rng.choice(AMOUNT_WORDS_ES)} dólares",
                     f"{digits} pesos", f"{digits}"]
            return rng.choice(forms)
        if r < 0.35:
            return f"${digits}"
        if r < 0.55:
            return f"{digits} {rng.choice(['dollars', 'dollars', 'bucks', 'usd', 'dollar'])}"
        if r < 0.68:
            return f"{rng.choice(AMOUNT_WORDS)} {rng.choice(['dollars', 'bucks'])}"
        if r < 0.78:
            return rng.choice([f"€{digits}", f"{digits} euros", f"£{digits}", f"{digits} pounds"])
        return digits

    def fill(self, name, pools):
        rng, part = self.rng, self.part
        es = self.es
        if name in ("P", "Pposs"):
            person = self.person(pools)
            if name == "Pposs":
                return person + [("'s", None)] if not es else person
            return person
        if name == "R":
            return [(rng.choice(FAMILY_ES if es else FAMILY), "person")]
        if name == "A":
            return [(self.amount(), "amount")]
        if name == "D":
            if not es and part == 0 and rng.random() < 0.7:
                return [(train_date(rng), "date")]
            if es and part == 0 and rng.random() < 0.7:
                return [(train_date_es(rng), "date")]
            return [(rng.choice((DATES_ES if es else DATES)[part]), "date")]
        if name in ("F", "T", "C"):
            slot = {"F": "from_account", "T": "to_account", "C": "account"}[name]
            if rng.random() < 0.3:
                return [(rng.choice(self.values["accounts_es" if es else "accounts"]), slot)]
            return [(rng.choice((ACCOUNTS_ES if es else ACCOUNTS)[part]), slot)]
        if name == "M":
            return [(rng.choice(METHODS[part]), "from_account")]
        if name == "O":
            if rng.random() < 0.6:
                return [(rng.choice(self.values["orgs_es" if es else "orgs"]), "org")]
            return [(rng.choice((ORGS_ES if es else ORGS)[part]), "org")]
        if name == "B":
            return [(rng.choice(BANKS[part]), "org")]
        if name == "K":
            return [(rng.choice((KINDS_ES if es else KINDS)[part]), "bill_type")]
        if name == "N":
            if not es and rng.random() < 0.6:
                return [(rng.choice(self.values["notes"]), "note")]
            return [(rng.choice((NOTES_ES if es else NOTES)[part]), "note")]
        if name == "L":
            return [(rng.choice(self.values["places"]), None)]
        if name == "X":
            return [(rng.choice(THINGS[part]), None)]
        if name == "Y":
            return [(rng.choice(FAVORS[part]), None)]
        if name == "open":
            return [(rng.choice((OPEN_ES if es else OPEN)[part]), None)]
        if name == "end":
            return [(rng.choice(END[part]) if not es else rng.choice(["", "", " por favor", " ahora", " gracias"]), None)]
        raise KeyError(name)

    def sentence(self, template, intent, pools):
        rng = self.rng
        template = expand(template, rng)
        segments = []
        for piece in re.split(r"(\{[A-Za-z]+\})", template):
            if piece.startswith("{"):
                segments += self.fill(piece[1:-1], pools)
            elif piece:
                segments.append((piece, None))
        lower = rng.random() < 0.45
        noisy = rng.random() < 0.12
        text, slots = "", []
        for i, (piece, slot) in enumerate(segments):
            if noisy and slot is None:
                piece = " ".join(typo(w, rng) if rng.random() < 0.3 else w for w in piece.split(" "))
            if slot == "person" and piece not in FAMILY + FAMILY_ES:
                # People type names as they like: capitalised in most sentences, in lower case in many
                # all-lower-case ones (the labeller tells them from common words, not by the capital).
                if lower and rng.random() < 0.7:
                    piece = piece.lower()
                elif not lower and rng.random() < 0.6:
                    piece = " ".join(w[:1].upper() + w[1:] for w in piece.split(" "))
            start = len(text)
            text += piece
            if slot:
                slots.append({"slot": slot, "start": start, "end": len(text), "value": piece})
        if not lower and text and text[0].isalpha():
            text = text[0].upper() + text[1:]
            if slots and slots[0]["start"] == 0:
                slots[0]["value"] = text[:slots[0]["end"]]
        if intent not in ("answer",) and rng.random() < 0.3 and not text.endswith("?"):
            text += rng.choice([".", "!", "?"]) if intent.startswith("search") else rng.choice([".", "!"])
        text = re.sub(r"\s+", " ", text)
        # Collapsing spaces moves offsets: recompute them from the values, in order.
        at = 0
        for s in slots:
            s["value"] = re.sub(r"\s+", " ", s["value"]).strip()
            s["start"] = text.index(s["value"], at)
            s["end"] = s["start"] + len(s["value"])
            at = s["end"]
        if text.startswith(" "):
            raise ValueError(text)
        return {"text": text, "expected": intent, "lang": "es" if self.es else "en", "slots": slots}


def generate(templates, part, spanish, pools, values, per_intent, rng):
    writer = Writer(rng, part, spanish, values[part])
    rows = []
    for intent, (train, dev) in templates.items():
        chosen = train if part == 0 else dev
        for i in range(per_intent[intent] if isinstance(per_intent, dict) else per_intent):
            rows.append(writer.sentence(chosen[i % len(chosen)] if i < len(chosen) else rng.choice(chosen), intent, pools))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "generated"))
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    train_pools, dev_pools = names(args.seed)
    values = open_values(args.seed)
    ANSWERS[0].extend(ANSWERS_MORE)
    english = dict(T, answer=ANSWERS, out_of_scope=OOS_EN)
    dev_english = dict(T, out_of_scope=OOS_EN)
    counts_en = {"send_payment": 6000, "request_payment": 5000, "pay_bill": 2500, "search_for_bills": 1500,
                 "transfer_money": 2000, "search_for_accounts": 1500, "search_for_payments": 2000, "answer": 3000,
                 "out_of_scope": 4000}
    counts_es = {"send_payment": 1200, "request_payment": 1000, "pay_bill": 800, "search_for_bills": 500,
                 "transfer_money": 700, "search_for_accounts": 500, "search_for_payments": 600, "out_of_scope": 1200}
    outputs = {
        "train-en.jsonl": generate(english, 0, False, train_pools, values, counts_en, random.Random(args.seed)),
        "dev-en.jsonl": generate(dev_english, 1, False, dev_pools, values, 200, random.Random(args.seed + 1)),
        "train-es.jsonl": generate(TES, 0, True, train_pools, values, counts_es, random.Random(args.seed + 2)),
        "dev-es.jsonl": generate(TES, 1, True, dev_pools, values, 80, random.Random(args.seed + 3)),
    }
    # The transfer look-alikes, after every other line, with generators of their own (the lines above stay as they were).
    for name, spanish, templates in [("train-es.jsonl", True, TRANSFER_LOOKALIKES_ES), ("train-en.jsonl", False, TRANSFER_LOOKALIKES_EN)]:
        rng = random.Random(args.seed + TRANSFER_LOOKALIKE_SEED + spanish)
        outputs[name] += generate({"out_of_scope": (templates, [])}, 0, spanish, train_pools, values,
                                  TRANSFER_LOOKALIKE_COUNT[name], rng)
    for name, rows in outputs.items():
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{name}: {len(rows)} lines")


if __name__ == "__main__":
    main()
