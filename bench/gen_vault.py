"""Generate a deterministic synthetic tota vault for benchmarks.

    python -m bench.gen_vault 100000 /tmp/tota-bench/vault-100000 --seed 7

Writes N notes in tota's format (`<type>/<Title>.md`, frontmatter in tota's key order with
ULID-like ids, scores, Obsidian dates, key, subject, sources, tags, and the `digest` seal tota
puts on its own writes), bodies of 1-4 sentences composed from word lists and templates, some
with a `## History` section, and reflections whose `## Members` section links other generated
notes with `[[wikilinks]]`. Titles (file names) are
unique across the vault, case-insensitively. The same N and seed always give the same bytes.

Beside the notes it writes `.gitignore` (as `tota init` does) and `.gen_vault.json`: the
parameters and a query vocabulary (common words, rare words, word pairs that occur together in
a note) that `bench.sync` draws its search queries from. Neither is a note, so tota and the
baseline skip both.
"""

from __future__ import annotations

import argparse
import calendar
import hashlib
import json
import os
import random
import re
import shutil
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

#: 3: memories carry `topic/<name>` tags, as tota's pipeline writes them.
GENERATOR_VERSION = 3
MANIFEST = ".gen_vault.json"

TYPES = (
    "identity", "preference", "goal", "project", "habit",
    "decision", "constraint", "relationship", "episode", "reflection",
)  # fmt: skip
#: Share of each type: many episodes and preferences, fewer identity facts.
TYPE_WEIGHTS = (5, 16, 8, 8, 10, 10, 7, 9, 19, 8)

START = datetime(2024, 1, 1, 7, 0, 0)
END = datetime(2026, 11, 29, 22, 0, 0)
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

# --- word lists ----------------------------------------------------------------------------
# fmt: off

FIRST = """Elena Joana Rui Dana Chiara Marco Sofia Tomás Inês Lucas Ana Pedro Beatriz Miguel Clara
Hugo Marta Diogo Leonor André Helena Tiago Carolina Nuno Mariana Bruno Raquel Filipe Teresa Paulo
Aisha Kenji Priya Omar Freya Lars Ingrid Mateo Valentina Luca Giulia Sven Astrid Noah Emma Liam
Olivia Yuki Hana Ravi Zara Felix Nora Oskar Ida Jonas Lea Emil Maja Anton Frida Karim Leila Tariq
Samir Amara Kofi Ama Chidi Ngozi Diego Camila Mateus Julia Pablo Lucía Hector Rosa Arturo Elif Emre
Zeynep Mehmet Dmitri Katya Ivan Olga Pavel Irina Wei Mei Jun Lin Hiro Aiko Sora Ren Noor Yasmin
Finn Aoife Cian Siobhan Rhys Carys Ewan Isla""".split()
LAST = """Marchetti Tavares Pires Whitfield Silva Santos Ferreira Costa Oliveira Rodrigues Martins
Sousa Gomes Lopes Carvalho Almeida Ribeiro Pereira Rossi Bianchi Romano Colombo Ricci Greco Conti
Moreau Laurent Dubois Lefebvre Fontaine Schmidt Müller Weber Fischer Becker Hoffmann Lindqvist
Andersson Nilsson Johansson Larsen Hansen Nielsen Kowalski Nowak Wiśniewski Novák Horvat Kovačić
Yılmaz Demir Şahin Tanaka Suzuki Watanabe Sato Nakamura Kim Park Choi Chen Wang Zhang Liu Patel
Sharma Iyer Reddy Okafor Mensah Adeyemi Haddad Nasser Khalil García Fernández López Martínez
Sánchez Ortega Navarro Morales Castillo Vargas Murphy Kelly Byrne Walsh Evans Hughes Price Moore
Clarke Turner Ivanova Petrov Sokolov Novak Jensen Berg Dahl Lund""".split()
CITIES = [
    "Lisbon", "Porto", "Coimbra", "Braga", "Faro", "Bologna", "Milan", "Turin", "Florence",
    "Naples", "Rome", "Madrid", "Seville", "Valencia", "Bilbao", "Barcelona", "Paris", "Lyon",
    "Marseille", "Nantes", "Berlin", "Hamburg", "Munich", "Leipzig", "Cologne", "Vienna", "Graz",
    "Zürich", "Basel", "Geneva", "Amsterdam", "Utrecht", "Rotterdam", "Ghent", "Antwerp",
    "Brussels", "Copenhagen", "Aarhus", "Malmö", "Stockholm", "Gothenburg", "Oslo", "Bergen",
    "Helsinki", "Tallinn", "Riga", "Vilnius", "Warsaw", "Kraków", "Gdańsk", "Prague", "Brno",
    "Budapest", "Ljubljana", "Zagreb", "Split", "Athens", "Thessaloniki", "Istanbul", "Izmir",
    "Dublin", "Cork", "Galway", "Edinburgh", "Glasgow", "Cardiff", "Bristol", "Manchester",
    "Leeds", "London", "Reykjavík", "Tokyo", "Kyoto", "Osaka", "Sapporo", "Seoul", "Busan",
    "Taipei", "Singapore", "Bangkok", "Hanoi", "Bengaluru", "Mumbai", "Pune", "Chennai", "Dubai",
    "Nairobi", "Lagos", "Accra", "Cape Town", "Cairo", "Marrakesh", "Toronto", "Montréal",
    "Vancouver", "Boston", "Chicago", "Denver", "Seattle", "Portland", "Austin", "Oakland",
    "Mexico City", "Oaxaca", "Bogotá", "Medellín", "Lima", "Santiago", "Buenos Aires",
    "Montevideo", "São Paulo", "Rio de Janeiro", "Recife", "Salvador", "Curitiba", "Melbourne",
    "Sydney", "Hobart", "Wellington", "Auckland",
]
HOODS = [h.strip() for h in """Arroios, Alfama, Graça, Campo de Ourique, Estrela, Belém,
Alvalade, Benfica, Marvila, Intendente, Bonfim, Cedofeita, Foz, Miragaia, Trastevere, Navigli,
Isola, Brera, Kreuzberg, Neukölln, Wedding, Friedrichshain, Jordaan, De Pijp, Södermalm,
Vesterbro, Nørrebro, Kallio, Praga, Žižkov, Vinohrady, Gràcia, Poblenou, Malasaña, Lavapiés,
Triana, Belleville, Montmartre, Shimokitazawa, Koenji, Yanaka, Mission, Capitol Hill, Palermo,
Vila Madalena, Pinheiros, Santa Teresa, Chapinero""".split(",")]
LANGS = [
    "Portuguese", "European Portuguese", "Italian", "Spanish", "French", "German", "Dutch",
    "Swedish", "Danish", "Norwegian", "Finnish", "Polish", "Czech", "Greek", "Turkish",
    "Japanese", "Korean", "Mandarin", "Cantonese", "Hindi", "Arabic", "Swahili", "Yoruba",
    "Catalan", "Basque", "Irish", "Welsh", "Icelandic", "Hungarian", "Romanian", "Ukrainian",
    "Russian", "Hebrew", "Vietnamese", "Thai", "Indonesian", "Tagalog", "Esperanto",
]
TOOLS = [
    "Neovim", "VS Code", "Emacs", "Helix", "Zed", "IntelliJ", "PostgreSQL", "SQLite", "MySQL",
    "Redis", "Kafka", "RabbitMQ", "Docker", "Podman", "Kubernetes", "Nomad", "Terraform",
    "Ansible", "Nix", "Grafana", "Prometheus", "Sentry", "Obsidian", "Logseq", "Notion",
    "Todoist", "Things", "Anki", "Zotero", "Figma", "Blender", "Lightroom", "Darktable",
    "Affinity Photo", "Ableton", "Logic Pro", "Audacity", "Excel", "Jupyter", "pandas", "DuckDB",
    "Polars", "Airflow", "dbt", "Tableau", "Metabase", "Slack", "Zulip", "Signal", "Thunderbird",
    "Firefox", "Safari", "tmux", "zsh", "fish", "Git", "Mercurial", "GitHub", "GitLab", "Gitea",
    "Jira", "Linear", "Trello", "Miro", "Excalidraw", "LaTeX", "Typst", "Pandoc", "Hugo",
    "Jekyll", "Astro", "React", "Svelte", "Vue", "htmx", "Django", "Flask", "FastAPI", "Rails",
    "Phoenix", "Spring", "Garmin Connect", "Strava", "Komoot", "Duolingo", "Kindle", "Kobo",
    "reMarkable", "Raspberry Pi", "Arduino", "Home Assistant", "Syncthing", "Tailscale",
    "WireGuard", "Proxmox", "TrueNAS", "Borg", "restic",
]
PLANGS = [
    "Go", "Rust", "Python", "TypeScript", "Kotlin", "Java", "Scala", "Elixir", "Erlang",
    "Haskell", "OCaml", "Clojure", "Zig", "Swift", "Ruby", "Lua", "Julia", "Nim", "Crystal",
    "Gleam", "F#", "C", "C++", "Dart",
]
ACTS = [
    "running", "trail running", "bouldering", "climbing", "swimming", "open-water swimming",
    "cycling", "gravel riding", "yoga", "pilates", "rowing", "surfing", "padel", "tennis",
    "badminton", "hiking", "birdwatching", "film photography", "street photography",
    "darkroom printing", "baking sourdough", "fermenting vegetables", "cooking curries",
    "woodworking", "pottery", "knitting", "embroidery", "calligraphy", "sketching",
    "watercolour painting", "piano practice", "guitar practice", "choir singing", "chess",
    "go", "sudoku", "crosswords", "journaling", "meditation", "gardening", "beekeeping",
    "language exchange", "volunteering", "board games", "tabletop role-playing", "podcasting",
    "blogging", "open-source work", "mechanical keyboards", "home brewing", "kayaking", "skiing",
    "snowboarding", "ice skating", "salsa dancing", "tango", "lindy hop", "kickboxing", "judo",
    "fencing", "archery", "sailing", "orienteering", "geocaching", "astronomy", "reading",
    "audiobooks", "learning Portuguese",
]
FOODS = [
    "pastéis de nata", "bacalhau", "francesinha", "ramen", "udon", "sushi", "dumplings", "pho",
    "bánh mì", "pad thai", "green curry", "dal", "masala dosa", "falafel", "shakshuka", "hummus",
    "tagine", "jollof rice", "injera", "tacos al pastor", "mole", "arepas", "ceviche",
    "empanadas", "pizza al taglio", "risotto", "tortellini", "gnocchi", "carbonara", "paella",
    "tortilla", "croquetas", "pierogi", "goulash", "moussaka", "souvlaki", "kimchi stew",
    "bibimbap", "okonomiyaki", "croissants", "rye bread", "sourdough", "granola", "porridge",
    "dark chocolate", "pistachio gelato", "cheesecake", "cinnamon buns", "oat milk",
    "oat-milk flat whites", "espresso", "matcha", "green tea", "rooibos", "sparkling water",
    "natural wine", "vinho verde", "craft beer", "kombucha",
]
DRINKS = [
    "espresso", "a flat white", "a cortado", "filter coffee", "a galão", "matcha", "green tea",
    "black tea", "rooibos", "chai", "hot chocolate", "kombucha", "sparkling water",
    "fresh orange juice",
]
ROLES = [
    "backend engineer", "senior backend engineer", "staff engineer", "site reliability engineer",
    "data engineer", "data scientist", "machine-learning engineer", "frontend developer",
    "product manager", "engineering manager", "designer", "UX researcher", "technical writer",
    "nurse", "physiotherapist", "architect", "civil engineer", "teacher", "translator",
    "illustrator", "photographer", "journalist", "accountant", "lawyer", "pharmacist",
    "veterinarian", "chef", "barista", "carpenter", "electrician", "musician", "researcher",
    "postdoc", "lecturer", "librarian", "urban planner", "climate scientist",
]
TOPICS = [
    "distributed systems", "fare calculation", "payment systems", "search ranking",
    "observability", "database migrations", "query planning", "compilers", "type systems",
    "accessibility", "typography", "colour grading", "film scanning", "urban planning",
    "public transport", "cycling infrastructure", "climate policy", "sleep science",
    "nutrition", "strength training", "marathon training", "heart-rate zones", "injury recovery",
    "Portuguese grammar", "Italian cooking", "fermentation", "personal finance", "index funds",
    "home automation", "self-hosting", "privacy", "cryptography", "open source licensing",
    "team onboarding", "incident reviews", "code review", "career growth", "mentoring",
    "public speaking", "negotiation", "remote work", "async communication", "note-taking",
    "spaced repetition", "history of Lisbon", "Renaissance art", "jazz harmony",
    "bossa nova", "analog cameras", "lens repair", "birds of Iberia", "coastal ecology",
]
RELS = [
    "sister", "brother", "partner", "mother", "father", "grandmother", "cousin", "manager",
    "mentor", "tech lead", "running partner", "climbing partner", "flatmate", "neighbour",
    "landlord", "dentist", "physiotherapist", "therapist", "Portuguese tutor", "piano teacher",
    "best friend", "friend from university", "former colleague", "book-club friend",
    "godchild", "niece", "nephew", "aunt", "uncle", "accountant", "coach",
]
ADJS = [
    "quiet", "early", "short", "long", "slow", "focused", "honest", "relaxed", "structured",
    "small", "informal", "calm", "weekly", "monthly", "careful", "cheap", "local", "seasonal",
    "spicy", "strong", "light", "simple", "tidy", "noisy", "crowded", "sunny", "rainy",
]
REASONS = [
    "it saves time in the mornings", "her left knee needs the rest",
    "the team already knows it", "it keeps her evenings free", "the commute is shorter",
    "it is cheaper over a year", "she sleeps better that way", "it avoids another rewrite",
    "she wants fewer meetings", "the documentation is better", "it runs offline",
    "her partner suggested it", "it is easier to test", "the old setup kept breaking",
    "it keeps her accountable", "she can ship sooner", "it fits the on-call rota",
    "it is closer to the river", "the licence is simpler", "it reduces screen time",
]
BODY_PARTS = ["left knee", "right shoulder", "lower back", "left ankle", "right wrist", "neck"]
GENRES = [
    "lo-fi jazz", "bossa nova", "fado", "ambient", "post-rock", "minimal techno", "baroque",
    "film scores", "city pop", "afrobeat", "indie folk", "drum and bass", "dub", "bebop",
]
BOOK_GENRES = [
    "science fiction", "crime novels", "history", "biographies", "poetry", "graphic novels",
    "essays", "travel writing", "Portuguese literature", "Italian novels", "philosophy",
]
OBJECTS = [
    "Olympus OM-1", "Pentax K1000", "Canon AE-1", "Yashica Mat-124", "road bike from 1987",
    "Vespa", "mid-century armchair", "cast-iron pan", "sewing machine", "upright piano",
    "Raspberry Pi cluster", "balcony herb garden", "sourdough starter", "mechanical keyboard",
]
PROJ_KINDS = [
    "film-scan catalogue", "budget tracker", "recipe manager", "training log", "photo archive",
    "language-flashcard app", "home dashboard", "static blog", "bird-sighting map",
    "reading tracker", "CLI for timesheets", "plant-watering bot", "bike-route planner",
    "family tree", "expense splitter", "podcast feed", "book index",
]
RACES = ["half-marathon", "10k", "marathon", "15k", "trail race", "triathlon", "5k"]
LEVELS = ["A2", "B1", "B2", "C1", "C2"]
MONTHS = [calendar.month_name[i] for i in range(1, 13)]
DAYS = [calendar.day_name[i] for i in range(7)]
SUFFIXES = ["Labs", "Systems", "Studio", "Works", "Analytics", "Health", "Mobility", "Cooperative"]
SYLLABLES = """ne ga ti vo la ka ro mi sen dor bel qua zo pra lin tev mar ost ul fer
ri an ta co lu vi sa mo re da pe no ba li to ver sol mun gra bra tri cal vel por""".split()

# --- templates: (title, first sentence, key or None) per type -------------------------------

TEMPLATES: dict[str, list[tuple[str, str, str | None]]] = {
    "identity": [
        ("Lives in {city}",
         "Lives in {city}, in the {hood} neighbourhood, since moving from {city2} in {month} "
         "{year}.", "identity/location"),
        ("Works as a {role} at {company}",
         "Works as a {role} at {company}, mostly on {topic}.", "identity/job"),
        ("Born in {city}", "Was born in {city} and grew up speaking {lang}.",
         "identity/birthplace"),
        ("Speaks {lang} and {lang2}", "Speaks {lang} at home and {lang2} at work.",
         "identity/languages"),
        ("Studied {topic} in {city}",
         "Studied {topic} at university in {city}, graduating in {year}.", "identity/education"),
        ("Goes by {first} {last}",
         "Goes by {first} {last}; old friends from {city} still call her {first2}.",
         "identity/name"),
        ("Turns {age} in {month}", "Turns {age} on {dom} {month}; she was born in {city}.",
         "identity/birthday"),
    ],
    "preference": [
        ("Prefers {tool} over {tool2}",
         "Prefers {tool} over {tool2} for {topic}, with a small config she keeps in git.",
         "preference/{tool2}"),
        ("Likes {food}", "Likes {food}, especially from a {adj} place in {hood}.", None),
        ("Drinks {drink} in the morning",
         "Drinks {drink} every morning and avoids {drink2} after noon.",
         "preference/morning-drink"),
        ("Prefers {adj} meetings",
         "Prefers {adj} meetings and written async updates over long calls.",
         "preference/meetings"),
        ("Works to {genre} and {genre2}",
         "Works to {genre} and {genre2}; silence is for code review.", "preference/music"),
        ("Reads {bookgenre} before bed",
         "Reads {bookgenre} before bed, usually on a {tool} rather than on paper.", None),
        ("Prefers {plang} for {topic}",
         "Prefers {plang} for anything touching {topic} because {reason}.", "preference/{plang}"),
        ("Likes {act} on {day}s", "Likes {act} on {day}s when the weather in {city} allows.",
         None),
    ],
    "goal": [
        ("Run the {city} {race} under {hours}h{minutes}",
         "Wants to run the {city} {race} in under {hours}h{minutes} in {month} {year}.",
         "goal/{race}"),
        ("Reach {level} in {lang}",
         "Wants to reach {level} in {lang} by {month} {year}, with two lessons a week.",
         "goal/{lang}"),
        ("Release {code} 1.0 by {month} {year}",
         "Aims to release {code} 1.0 by {month} {year}, with {first} testing the beta.", None),
        ("Save for a trip to {city}",
         "Is saving {amount} euros for a trip to {city} with {first} next {month}.", None),
        ("Get better at {act}", "Wants to get better at {act} and practise {times} times a week.",
         None),
        ("Working toward {role}",
         "Is working toward a {role} role at {company} within {times} years.", "goal/career"),
    ],
    "project": [
        ("{code} {projkind}",
         "Is building {code}, a {projkind} written in {plang}, as a side project.", None),
        ("{company} migration to {tool}",
         "Leads the migration of {company}'s {topic} stack to {tool}, due in {month} {year}.",
         None),
        ("Restoring a {object}",
         "Is restoring a {object} bought at a flea market in {city} for {amount} euros.", None),
        ("Writing a talk on {topic}",
         "Is writing a talk on {topic} for a meetup in {city} in {month}.", None),
        ("{code} for {company}",
         "Maintains {code}, an internal {projkind} at {company} built on {tool}.", None),
    ],
    "habit": [
        ("{act_cap} on {day} evenings",
         "Goes {act} every {day} evening with {first} at a gym in {hood}.", None),
        ("{act_cap} {times} mornings a week",
         "Does {act} {times} mornings a week before work, usually around {hour}:00.", None),
        ("{day} review in {tool}",
         "Does a weekly review every {day} afternoon in {tool}, planning the next week.",
         "habit/weekly-review"),
        ("{lang} lessons on {day}s",
         "Takes {lang} lessons on {day}s with a tutor called {first}.", None),
        ("Stretching after {act}", "Stretches for {minutes} minutes after {act}.", None),
    ],
    "decision": [
        ("Chose {plang} over {plang2} for {code}",
         "Decided to write {code} in {plang} rather than {plang2} because {reason}.",
         "decision/{code}-language"),
        ("Declined the {city} offer",
         "Declined a job offer from {company} in {city} to stay close to her {rel}.", None),
        ("Keeps notes in {tool}",
         "Decided to keep all her notes in {tool} and sync them with {tool2}.",
         "decision/notes-tool"),
        ("Moved {topic} work to {tool}",
         "Moved the team's {topic} work to {tool} after a long discussion with {first}.", None),
        ("Stopped {act} for now",
         "Decided to stop {act} until {month} because {reason}.", None),
    ],
    "constraint": [
        ("Allergic to {food}", "Is allergic to {food}; a small amount is enough to react.",
         None),
        ("On-call one week in {times}",
         "Is on call one week in {times} for {company}'s {topic} services.", "constraint/on-call"),
        ("{body_cap} limits {act}",
         "Her {body} limits how much {act} she can do; {rel} {first} set the limits.", None),
        ("No meetings before {hour}",
         "Cannot take meetings before {hour}:00 because of the school run with {first}.",
         "constraint/mornings"),
        ("Budget of {amount} euros for {topic}",
         "Has a budget of {amount} euros a month for {topic} and tools like {tool}.", None),
    ],
    "relationship": [
        ("{rel_cap} {first} {last}",
         "Her {rel} is {first} {last}, who lives in {city} and works as a {role}.",
         "relationship/{rel}"),
        ("{first} {last} from {act}",
         "Met {first} {last} through {act} in {city}; they meet most {day}s.", None),
        ("{first} at {company}",
         "{first} {last} is a {role} at {company} who helps her with {topic}.", None),
    ],
    "episode": [
        ("Ran a {race} personal best in {city}",
         "Ran the {city} {race} on {dom} {month} {year} in a personal best; {first} paced her.",
         None),
        ("Gave a talk on {topic} in {city}",
         "Gave a talk on {topic} at a conference in {city} on {dom} {month} {year}.", None),
        ("Dinner with {first} in {hood}",
         "Had dinner with {first} at a {food} place in {hood} on {dom} {month}.", None),
        ("{code} outage during on-call",
         "Handled a {code} outage during on-call on {dom} {month} {year}; {tool} alerts fired "
         "late.", None),
        ("Visited {first} in {city}",
         "Visited {first} in {city} over the {month} {year} long weekend.", None),
        ("First {lang} conversation at a café",
         "Had her first long conversation in {lang} at a café in {hood} on {dom} {month}.", None),
        ("Fixed the {object}", "Fixed the {object} on {dom} {month} with help from {first}.",
         None),
    ],
    "reflection": [
        ("{topic_cap} and {act}",
         "{topic_cap} and {act} keep showing up together in her {month} notes; both depend on "
         "protecting her mornings.", None),
        ("How {act} fits the week",
         "{act_cap} fits her week best on {day}s and {day2}s, around on-call and lessons.", None),
        ("What {code} taught her",
         "Working on {code} taught her more about {topic} than any course did.", None),
    ],
}
EXTRAS = [
    "{first} suggested it during a {adj} conversation in {city}.",
    "It came up again while planning the {code} release.",
    "This matters because {reason}.",
    "She plans to revisit it after {month} {year}.",
    "Mentioned it twice while talking about {topic}.",
    "{first} {last} knows about it too.",
    "It connects to the {code} project at {company}.",
    "Said it works best on {day} mornings.",
    "She finds that {act} helps with {topic}.",
    "Her {rel} {first} was surprised by it.",
    "It started after a {adj} week in {city} in {month}.",
    "The notes for it live in {tool}.",
    "She tracks it in {tool} alongside {act}.",
    "It costs about {amount} euros a year.",
    "Confirmed again in a chat about {topic} on {dom} {month}.",
    "It is one reason she chose {hood} as a neighbourhood.",
    "Nothing about it changed when she moved to {city}.",
    "She brought it up while cooking {food} with {first}.",
    "{first} from {company} asked her about it in {month}.",
    "She wants to write about it on her blog, built with {tool}.",
    "It takes about {minutes} minutes each time.",
    "She would rather not discuss it at work.",
    "It became easier once she switched to {tool}.",
    "The idea first came from a book on {topic}.",
]
# fmt: on
_SLUG_RE = re.compile(r"[^a-z0-9]+")
_FORBIDDEN = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f]')
#: Words never used as queries on their own.
STOP = frozenset(
    "and the for with from that this she her they are was but not who its than about after "
    "over into more most less all any can had has have out".split()
)
_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def slug(text: str) -> str:
    """`São Paulo` -> `são-paulo`: lower case, runs of other characters as one dash."""
    return _SLUG_RE.sub("-", text.lower().replace("ã", "a").replace("é", "e")).strip("-") or "x"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Lexicon:
    """The word pools of one vault, including generated names (the vocabulary's long tail)."""

    def __init__(self, rng: random.Random, n: int) -> None:
        seen: dict[str, None] = {}
        target = max(400, n // 8)
        while len(seen) < target:
            word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3, 3, 4))))
            seen.setdefault(cap(word), None)
        #: Code names of projects and companies: a few are everywhere, most are rare.
        self.codes = list(seen)
        self.companies = [f"{c} {rng.choice(SUFFIXES)}" for c in self.codes[: max(100, n // 40)]]
        self.pools: dict[str, list[str]] = {
            "first": FIRST, "last": LAST, "city": CITIES, "hood": HOODS, "lang": LANGS,
            "tool": TOOLS, "plang": PLANGS, "act": ACTS, "food": FOODS, "drink": DRINKS,
            "role": ROLES, "topic": TOPICS, "rel": RELS, "adj": ADJS, "reason": REASONS,
            "body": BODY_PARTS, "genre": GENRES, "bookgenre": BOOK_GENRES, "object": OBJECTS,
            "projkind": PROJ_KINDS, "race": RACES, "level": LEVELS, "month": MONTHS, "day": DAYS,
        }  # fmt: skip

    def skewed(self, rng: random.Random, items: list[str]) -> str:
        """Draw with a long tail: the first items are common, the last ones rare."""
        return items[int(len(items) * rng.random() ** 3)]


class Slots(dict):
    """Template values drawn on first use, so a note's title and body agree on them."""

    def __init__(self, rng: random.Random, lex: Lexicon) -> None:
        super().__init__()
        self.rng = rng
        self.lex = lex

    def __missing__(self, key: str) -> str:
        rng = self.rng
        base = key.rstrip("0123456789")
        if base.endswith("_cap"):
            value = cap(self[key[: -len("_cap")]])
        elif base == "code":
            value = self.lex.skewed(rng, self.lex.codes)
        elif base == "company":
            value = self.lex.skewed(rng, self.lex.companies)
        elif base == "year":
            value = str(rng.randint(2019, 2027))
        elif base in ("dom", "age", "hours", "minutes", "times", "hour", "amount"):
            low, high = {
                "dom": (1, 28), "age": (25, 55), "hours": (1, 4), "minutes": (10, 59),
                "times": (2, 6), "hour": (7, 10), "amount": (20, 3000),
            }[base]  # fmt: skip
            value = str(rng.randint(low, high))
        else:
            pool = self.lex.pools[base]
            taken = {v for k, v in self.items() if k.rstrip("0123456789") == base}
            value = rng.choice(pool)
            while value in taken and len(pool) > len(taken):
                value = rng.choice(pool)
        self[key] = value
        return value


def ulid(rng: random.Random, when: datetime) -> str:
    """A ULID-like id: 48 bits of milliseconds since the epoch (as UTC), then 80 random bits."""
    millis = calendar.timegm(when.timetuple()) * 1000 + rng.randrange(1000)
    value = (millis << 80) | rng.getrandbits(80)
    return "".join(CROCKFORD[(value >> shift) & 31] for shift in range(125, -1, -5))


def fmt_date(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%S")


def score(rng: random.Random, low: float, high: float) -> str:
    return repr(round(rng.uniform(low, high), 2))


def safe_title(text: str, limit: int = 80) -> str:
    """tota's title rules: no `\\ / : * ? " < > | # ^ [ ]`, at most `limit` characters, cut at a
    word boundary, no leading or trailing dot."""
    title = " ".join(_FORBIDDEN.sub(" ", text).split())
    if len(title) > limit:
        title = title[: limit + 1].rsplit(" ", 1)[0]
    return title.strip(". ") or "Untitled"


def make_title(candidates: list[str], taken: dict[str, int]) -> str:
    """The first free (case-insensitively) of `candidates`, else the first with ` 2`, ` 3`."""
    for text in candidates:
        if text.casefold() not in taken:
            taken[text.casefold()] = 1
            return text
    title = candidates[0]
    key = title.casefold()
    n = taken[key]
    while True:
        n += 1
        candidate = f"{title} {n}"
        if candidate.casefold() not in taken:
            taken[key] = n
            taken[candidate.casefold()] = 1
            return candidate


class Note:
    __slots__ = ("type", "title", "text", "created", "updated", "words")

    def __init__(self, type_: str, title: str, text: str, created: datetime, words: list[str]):
        self.type = type_
        self.title = title
        self.text = text
        self.created = created
        self.updated = created
        self.words = words


def generate(n: int, seed: int) -> tuple[list[tuple[str, bytes]], dict]:
    """Return the vault's notes as (vault-relative path, bytes) and the query vocabulary."""
    # Imported here, not above: bench.sync's bare-baseline worker imports this module through
    # the kit, and must not import any of tota to stay bare.
    from tota_vault.topics import with_topics

    rng = random.Random(seed)
    lex = Lexicon(rng, n)
    types = rng.choices(TYPES, weights=TYPE_WEIGHTS, k=n)
    # Reflections last, so each can link notes that exist already.
    order = sorted(range(n), key=lambda i: types[i] == "reflection")
    span = int((END - START).total_seconds() // 60)
    taken: dict[str, int] = {}
    titles: list[str] = []
    out: list[tuple[str, bytes]] = []
    doc_freq: dict[str, int] = {}
    pairs: list[list[str]] = []
    pair_every = max(1, n // 600)

    for count, i in enumerate(order):
        mtype = types[i]
        slots = Slots(rng, lex)
        title_t, first_t, key_t = rng.choice(TEMPLATES[mtype])
        sentences = [first_t.format_map(slots)]
        extra = rng.choices((0, 1, 2, 3), weights=(30, 35, 25, 10))[0]
        for template in rng.sample(EXTRAS, extra):
            sentences.append(cap(template.format_map(slots)))
        # A short title like the sample vault's; on a clash, the first sentence as tota's
        # writer names notes (title_from_text); then ` 2`, ` 3` as tota does.
        title = make_title(
            [safe_title(cap(title_t.format_map(slots))), safe_title(sentences[0].split(";")[0])],
            taken,
        )

        created = START + timedelta(minutes=rng.randrange(span))
        if mtype != "episode" and rng.random() < 0.4:
            updated = min(END, created + timedelta(minutes=rng.randrange(1, 300 * 24 * 60)))
        else:
            updated = created
        confirmations = 1 if updated == created else rng.randint(2, 5)
        chats = sorted(
            created + timedelta(seconds=rng.random() * (updated - created).total_seconds())
            for _ in range(confirmations - 1)
        )
        source_dates = [created, *chats[:-1], updated] if confirmations > 1 else [created]
        sources = [f"chat-{d:%Y-%m-%d}#{rng.randint(1, 40)}" for d in source_dates]
        evidence = (
            "system"
            if mtype == "reflection"
            else rng.choices(("direct", "inferred", "manual", "system"), (72, 15, 5, 8))[0]
        )
        status = rng.choices(("active", "archived", "superseded"), (94, 4, 2))[0]

        tags = [f"tota/{mtype}"]
        for name in ("city", "tool", "code", "first", "company", "act"):
            if name in slots and rng.random() < 0.35:
                prefix = {"city": "place", "tool": "tools", "code": "project",
                          "first": "people", "company": "work", "act": "hobby"}[name]  # fmt: skip
                tags.append(f"{prefix}/{slug(slots[name])}")
        if mtype == "episode" and "race" in slots:
            tags.extend(["running", "race"])

        body = " ".join(sentences) + "\n"
        if mtype != "reflection":  # as tota's pipeline tags what it writes (topics.py)
            tags = list(with_topics(tags, body))
        if mtype == "reflection":
            members = rng.sample(titles, min(len(titles), rng.randint(3, 6))) if titles else []
            sources = [f"chat-{d:%Y-%m-%d}#{rng.randint(1, 40)}" for d in sorted(
                created - timedelta(days=rng.randrange(1, 200)) for _ in range(len(members) or 1)
            )]  # fmt: skip
            if members:
                body += "\n## Members\n" + "".join(f"- [[{m}]]\n" for m in members)
        elif rng.random() < 0.15:
            old = cap(title_t.format_map(Slots(rng, lex)))
            low = round(rng.uniform(0.55, 0.75), 2)
            body += (
                f'\n## History\n- {fmt_date(created)} replaced "{old}" '
                f"(confidence {low:.2f} < {rng.uniform(0.8, 0.99):.2f}, evidence direct)\n"
            )

        conf = score(rng, 0.55, 0.99)
        lines = [
            "---",
            f"id: {ulid(rng, created)}",
            f"type: {mtype}",
            f"confidence: {conf}",
            f"importance: {score(rng, 0.2, 0.9)}",
            f"durability: {score(rng, 0.3, 0.95)}",
            f"evidence: {evidence}",
            f"status: {status}",
            f"created: {fmt_date(created)}",
            f"updated: {fmt_date(updated)}",
            f"confirmed: {fmt_date(updated)}",
            f"confirmations: {confirmations}",
        ]
        if key_t is not None and rng.random() < 0.8:
            kind, slot = key_t.split("/", 1)
            lines.append(f"key: {kind}/{slug(slot.format_map(slots))}")
        subject = "user" if rng.random() < 0.9 else slots["first"]
        lines.append(f"subject: {subject}")
        lines.append("sources:")
        lines.extend(f"  - {s}" for s in sources)
        lines.append("tags:")
        lines.extend(f"  - {t}" for t in tags)
        # The seal tota puts on its own writes (tota_vault/seal.py): the sha256 of the note
        # without its digest line, first 24 hex digits, as the last property.
        unsealed = "\n".join([*lines, "---"]) + "\n" + body
        digest = hashlib.sha256(unsealed.encode("utf-8")).hexdigest()[:24]
        lines.append(f'digest: "sha256:{digest}"')
        lines.append("---")
        text = "\n".join(lines) + "\n" + body

        out.append((f"{mtype}/{title}.md", text.encode("utf-8")))
        if mtype != "reflection":
            titles.append(title)

        words = []
        for value in slots.values():
            words.extend(w.lower() for w in _WORD_RE.findall(value))
        distinct = list(dict.fromkeys(words))
        for word in distinct:
            doc_freq[word] = doc_freq.get(word, 0) + 1
        if count % pair_every == 0 and len(distinct) >= 2:
            pairs.append(rng.sample(distinct, 2))

    rare = [w for w, c in doc_freq.items() if c <= 3 and len(w) >= 5]
    common_floor = max(2, n // 1000)
    common = [w for w, c in doc_freq.items() if c >= common_floor and w not in STOP]
    vocab = {"common": sorted(common), "rare": sorted(rare), "pairs": pairs}
    return out, vocab


def write_vault(out_dir: Path, n: int, seed: int, *, force: bool = False) -> dict:
    """Generate and write the vault; return the manifest. Refuses to overwrite a folder that
    holds anything but an earlier generated vault."""
    marker = out_dir / MANIFEST
    if out_dir.exists() and any(out_dir.iterdir()):
        if not marker.exists():
            raise SystemExit(f"{out_dir}: not empty and not a generated vault; not touched")
        if not force:
            raise SystemExit(f"{out_dir}: a generated vault is there already; pass --force")
        shutil.rmtree(out_dir)
    started = time.perf_counter()
    notes, vocab = generate(n, seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    for mtype in TYPES:
        (out_dir / mtype).mkdir(exist_ok=True)
    total = 0
    for rel, data in notes:
        with open(out_dir / rel, "wb") as handle:
            handle.write(data)
        total += len(data)
    (out_dir / ".gitignore").write_text(".tota/\n.obsidian/workspace.json\n.trash/\n", "utf-8")
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "n": n,
        "seed": seed,
        "bytes": total,
        "vocab": vocab,
    }
    marker.write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return {**manifest, "seconds": round(time.perf_counter() - started, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="number of notes")
    parser.add_argument("out", type=Path, help="vault folder to create")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    parser.add_argument("--force", action="store_true", help="replace an earlier generated vault")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("n must be at least 1")
    manifest = write_vault(args.out, args.n, args.seed, force=args.force)
    print(
        f"wrote {args.n} notes ({manifest['bytes'] / 1e6:.1f} MB) to {args.out} "
        f"in {manifest['seconds']:.1f}s (seed {args.seed})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    os.umask(0o077)
    sys.exit(main())
