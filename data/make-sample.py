#!/usr/bin/env python3
"""Writes data/sample.xml: a small dump in the enwiki abstract format.

Every sentence, name and place below was written for this project (nothing is
copied from Wikipedia or the shared corpora). The output is deterministic, so
re-running the script reproduces the committed file byte for byte:

    python3 data/make-sample.py > data/sample.xml

It carries the quirks of the real dump that readers and analyzers must handle:
"Wikipedia: " title prefixes, both spellings of an empty abstract, indentation
and blank lines between elements, every entity form (&amp; &lt; &gt; &quot;
&#39; &#233; &#x4E2D;), accents, Cyrillic, Greek and CJK text, sublinks with
anchors, infobox and template left-overs, and repeated words ("cat", "wild
cat", "search engine") so that queries have interesting hit counts.
"""

import random
import sys

SEED = 20240229
DOCS = 300

# Topics: (title nouns, sentence templates). {X} is the title subject,
# {A}/{B} are words drawn from the topic's fillers.
TOPICS = {
    "computing": {
        "subjects": [
            "Search engine", "Compiler", "Hash table", "Binary tree", "Garbage collector", "Inverted index",
            "Operating system", "File system", "Packet router", "Text editor", "Query planner", "Bloom filter",
            "Disk scheduler", "Spreadsheet", "Web browser", "Database index", "Regular expression",
            "Virtual machine", "Cache memory", "Sorting algorithm", "Network switch", "Shell script",
            "Version control", "Memory allocator", "Task scheduler", "Stream cipher", "Checksum",
        ],
        "fillers": ["memory", "disk", "processor", "keyboard", "network", "query", "index", "program", "kernel",
                    "thread", "byte", "pointer", "server", "client", "cache", "compiler", "terminal"],
        "templates": [
            "A {X} is a piece of software that turns {A} requests into {B} operations.",
            "The {X} keeps a small table in {A} so that each lookup touches the {B} only once.",
            "Early versions of the {X} were written for machines with very little {A}.",
            "A search engine usually relies on a {X} to answer a query in a few milliseconds.",
            "Programmers tune the {X} by measuring how often the {A} waits for the {B}.",
            "The {X} splits its work into blocks of 128 items, which keeps the {A} busy.",
            "Most textbooks describe the {X} together with the {A} and the {B}.",
        ],
    },
    "animals": {
        "subjects": [
            "Wild cat", "Sand cat", "Fishing cat", "Snow leopard", "Red fox", "Grey wolf", "Barn owl",
            "River otter", "Mountain goat", "Honey bee", "Green turtle", "Hedgehog", "Badger", "Lynx",
            "Arctic hare", "Kingfisher", "Salamander", "Black bear", "House cat", "Jaguar", "Cheetah",
            "Pine marten", "Tree frog", "Mole", "Swallow", "Moose",
        ],
        "fillers": ["forest", "river", "meadow", "mountain", "desert", "marsh", "burrow", "nest", "prey",
                    "winter", "summer", "night", "den", "cub", "tail", "fur"],
        "templates": [
            "The {X} is a small animal that hunts at {A} along the edge of the {B}.",
            "Like the wild cat, the {X} spends most of the {A} hidden in a {B}.",
            "A {X} marks its {A} with scent and defends it against rivals.",
            "The {X} has thick {A} that keeps it warm during a long {B}.",
            "Farmers once believed that a {X} near the {A} would bring a good {B}.",
            "Young {X} cubs stay with their mother until the next {A}.",
            "The cat family includes the {X} only in older classifications.",
            "Unlike most cats, the {X} enjoys swimming in the {A}.",
        ],
    },
    "places": {
        "subjects": [
            "Port Avalon", "Millbrook", "Eastwater", "Lake Varren", "Northgate", "Saint Orlo", "Kestrel Bay",
            "Oldham Ridge", "Greyhaven", "Marrow Island", "Tollmere", "Westfield Harbour", "Brackenfell",
            "Lindquist Valley", "Cape Merrow", "Stonebridge", "Halden Falls", "Ravensholm", "Upper Fenwick",
            "Dunmore", "Saltmarsh", "Copperton",
        ],
        "fillers": ["harbour", "bridge", "market", "cathedral", "railway", "river", "hill", "castle",
                    "square", "mill", "school", "museum", "village", "coast"],
        "templates": [
            "{X} is a town on the {A} with an old stone {B}.",
            "The population of {X} grew quickly after the {A} opened.",
            "Visitors to {X} come for the {A} and stay for the {B}.",
            "{X} holds a fair every autumn in the main {A}, next to the {B}.",
            "The first {A} of {X} was built by fishermen who sold their catch at the {B}.",
            "A local legend says a grey heron guarded the {A} of {X} for a hundred years.",
        ],
    },
    "science": {
        "subjects": [
            "Photosynthesis", "Plate tectonics", "Magnetism", "Entropy", "Crystal lattice", "Tide",
            "Volcano", "Comet", "Electric charge", "Enzyme", "Sound wave", "Glacier", "Rainbow",
            "Semiconductor", "Isotope", "Catalyst", "Nebula", "Aurora", "Fossil", "Cloud",
        ],
        "fillers": ["energy", "light", "heat", "pressure", "atom", "electron", "water", "rock", "ice",
                    "sun", "moon", "field", "wave", "cell", "gas"],
        "templates": [
            "{X} describes how {A} moves from one place to another through {B}.",
            "Scientists measure {X} by watching changes in {A} and {B}.",
            "The study of {X} began when observers noticed that {A} behaves like {B}.",
            "Without {X}, there would be no {A} on the surface of the {B}.",
            "A simple experiment shows {X} with nothing more than {A}, {B} and patience.",
        ],
    },
    "music": {
        "subjects": [
            "Violin", "Harpsichord", "Bagpipes", "Drum kit", "Choir", "Lullaby", "Sonata", "Banjo",
            "Accordion", "Pipe organ", "Folk song", "Brass band", "Flute", "Cello", "Marimba",
        ],
        "fillers": ["melody", "rhythm", "string", "chord", "concert", "dance", "festival", "song", "key",
                    "tempo", "note", "choir"],
        "templates": [
            "The {X} is played at almost every {A} and many a {B}.",
            "A {X} can carry a {A} and a {B} at the same time.",
            "Makers of the {X} argue about the best wood for each {A}.",
            "Children often learn the {X} by copying a {A} note by note.",
        ],
    },
}

# Non-ASCII and entity-heavy docs, written out in full. Each value is raw
# text; escaping happens when the XML is written.
SPECIAL = [
    ("Café Zürich", "Café Zürich is a coffee house where naïve poets and a résumé-writing clerk meet; "
     "the façade is painted blue, and the menu lists crème brûlée."),
    ("Москва (song)", "«Москва» is a short folk song; its chorus repeats the word город, and the melody "
     "is played on a balalaika at the summer festival."),
    ("Αθήνα Express", "Αθήνα Express is a night train; the timetable prints Αθήνα and Θεσσαλονίκη "
     "in Greek letters, and a small cat sleeps in the dining car."),
    ("東京 Search", "東京 Search is a search engine for train timetables; it indexes 駅 names in 日本語 "
     "and answers a query in milliseconds."),
    ("中文 Keyboard", "The 中文 keyboard maps each key to a stroke; typing 中 takes two presses."),
    ("R&D Lab", "The R&D lab tests whether x < y and y > z hold; the log says \"done\" and it's fine."),
    ("Q&A Forum", "On the Q&A forum, a question about cat food got 40 answers & a quote: \"feed it twice\"."),
    ("AT&T-style Names", "Company names like A&B or X&Y keep their ampersand: &amp; is how it's written in XML."),
    ("Straße Café", "Straße Café sits on a Straße in Łódź; the owner's name is Ærøskøbing Ödegaard."),
    ("Crème Search Engine", "Crème is a tiny search engine that ranks recipes; a query for crème finds 12 pages."),
]

INFOBOX = [
    "| birth_place = London",
    "| name = Wild Cat Rangers | founded = 1921 | ground = Millbrook Park",
    "| population = 12,400 | elevation_m = 35",
    "{{Infobox settlement | name = Greyhaven }}",
    "thumb|A wild cat on a stone wall.",
    "Kestrel Bay (disambiguation)}}",
]

SECTIONS = ["History", "Etymology", "Description", "Behaviour", "Geography", "Economy", "Culture",
            "See also", "References", "External links", "Design", "Uses", "Habitat", "Sound"]


def escape(text, apostrophe=True, numeric=False):
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    if apostrophe:
        out = out.replace("'", "&#39;")
    if numeric:  # numeric character references, as some dumps carry them
        out = out.replace("é", "&#233;").replace("中", "&#x4E2D;")
    return out


def url_for(title):
    path = title.replace(" ", "_").replace("%", "%25").replace("?", "%3F").replace("#", "%23")
    return "https://en.wikipedia.org/wiki/" + path.replace('"', "%22")


def make_abstract(rng, topic, subject):
    spec = TOPICS[topic]
    count = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
    sentences = []
    for template in rng.sample(spec["templates"], min(count, len(spec["templates"]))):
        a, b = rng.sample(spec["fillers"], 2)
        # Places are proper names; other subjects are common nouns.
        x = subject if topic == "places" else subject.lower()
        sentence = template.replace("{X}", x).replace("{A}", a).replace("{B}", b)
        sentences.append(sentence[0].upper() + sentence[1:])
    return " ".join(sentences)


def write_doc(out, rng, title, abstract, sublinks, style):
    """style picks the layout: 0 one element per line (the real dump),
    1 indented, 2 blank lines and CRLF-free extra spaces, 3 title on its own line."""
    url = url_for(title)
    if style == 1:
        ind, nl = "  ", "\n"
    else:
        ind, nl = "", "\n"
    out.append("<doc>" + nl)
    if style == 3:
        out.append(ind + "<title>\n  Wikipedia: " + escape(title, apostrophe=False) + "</title>" + nl)
    else:
        out.append(ind + "<title>Wikipedia: " + escape(title, apostrophe=False) + "</title>" + nl)
    if style == 2:
        out.append("\n")
    out.append(ind + "<url>" + escape(url, apostrophe=False) + "</url>" + nl)
    if abstract is None:
        out.append(ind + "<abstract />" + nl)
    elif abstract == "":
        out.append(ind + "<abstract></abstract>" + nl)
    else:
        out.append(ind + "<abstract>" + abstract + "</abstract>" + nl)
    if not sublinks:
        out.append(ind + "<links>" + nl + ind + "</links>" + nl)
    else:
        out.append(ind + "<links>" + nl)
        for anchor in sublinks:
            target = url + "#" + anchor.replace(" ", "_")
            out.append(ind + ind + '<sublink linktype="nav"><anchor>' + escape(anchor, apostrophe=False) +
                       "</anchor><link>" + escape(target, apostrophe=False) + "</link></sublink>" + nl)
        out.append(ind + "</links>" + nl)
    if style == 2:
        out.append("\n")
    out.append("</doc>\n")


def main():
    rng = random.Random(SEED)
    topics = sorted(TOPICS)
    seen = {}
    out = ["<feed>\n"]
    specials = list(SPECIAL)
    infoboxes = list(INFOBOX)
    for i in range(DOCS):
        style = rng.choice([0, 0, 0, 0, 0, 1, 2, 3])
        sublinks = rng.sample(SECTIONS, rng.choice([0, 0, 1, 2, 3, 4]))
        if i % 29 == 7 and specials:
            title, raw = specials.pop(0)
            abstract = escape(raw, numeric=(i % 2 == 1))
        elif i % 37 == 11 and infoboxes:
            title = "Template remains " + str(len(INFOBOX) - len(infoboxes) + 1)
            abstract = escape(infoboxes.pop(0))
        else:
            topic = topics[rng.randrange(len(topics))]
            subject = rng.choice(TOPICS[topic]["subjects"])
            # Repeated subjects get a disambiguating suffix, as the real dump does.
            n = seen.get(subject, 0)
            seen[subject] = n + 1
            title = subject if n == 0 else subject + " (" + topic + (" " + str(n) if n > 1 else "") + ")"
            abstract = escape(make_abstract(rng, topic, subject))
            if i % 41 == 5:
                abstract = None  # <abstract />
            elif i % 43 == 6:
                abstract = ""  # <abstract></abstract>
        write_doc(out, rng, title, abstract, sublinks, style)
    out.append("</feed>\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
