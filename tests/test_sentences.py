"""From a message to the sentences and clauses the rules read (extract/sentences.py)."""

from __future__ import annotations

import pytest

from tota_vault.extract.sentences import (
    QUOTED_MARK,
    clean,
    split_sentences,
    statements,
    without_pasted,
    without_secrets,
)

# fmt: off
SPLITS = [
    # an abbreviation or an initial ends no sentence
    ("My advisor is Prof. Lindqvist. She is great.",
     ["My advisor is Prof. Lindqvist.", "She is great."]),
    ("I saw Dr. Okafor today. It went well.", ["I saw Dr. Okafor today.", "It went well."]),
    ("I love F. Scott Fitzgerald.", ["I love F. Scott Fitzgerald."]),
    ("I code in many languages, e.g. Rust. I like it.",
     ["I code in many languages, e.g. Rust.", "I like it."]),
    # "I." is the pronoun, and ends a sentence
    ("So do I. My cat is old.", ["So do I.", "My cat is old."]),
    ("I live in Porto! I work at Acme? Yes.", ["I live in Porto!", "I work at Acme?", "Yes."]),
]
# fmt: on


@pytest.mark.parametrize(("text", "sentences"), SPLITS, ids=[s[0] for s in SPLITS])
def test_split_sentences(text: str, sentences: list[str]):
    assert [s.strip() for s in split_sentences(text)] == sentences


# fmt: off
STATEMENTS = [
    # a label that opens a message is residue; a colon after a verb or a subject is not one
    ("Update: my thesis deadline got pushed to July 15.",
     ["My thesis deadline got pushed to July 15."]),
    ("Change of plans: we decided to stay in Porto.", ["We decided to stay in Porto."]),
    ("Note to self: I need to renew my passport.", ["I need to renew my passport."]),
    ("My favourites: tea and jazz.", ["My favourites: tea and jazz."]),
    ("Tomorrow: I fly to Rome.", ["Tomorrow: I fly to Rome."]),
    ("I love two things: hiking and tea.", ["I love two things: hiking and tea."]),
    # a first-person discourse marker is residue too
    ("I have to say, I love this city.", ["I love this city."]),
    ("I must admit that I love this city.", ["I love this city."]),
    ("I have to say goodbye to my dog.", ["I have to say goodbye to my dog."]),
    # a new first-person clause is a statement of its own
    ("My name is Sam and I live in Porto.", ["My name is Sam", "I live in Porto."]),
    ("I'm vegetarian and my daughter is allergic to peanuts.",
     ["I'm vegetarian", "My daughter is allergic to peanuts."]),
    # two statements joined by a comma alone, but not a clause that sets the time
    ("I like to go to the movies, I love seeing new films.",
     ["I like to go to the movies", "I love seeing new films."]),
    ("When I was young, I lived in Rome.", ["When I was young, I lived in Rome."]),
    # a companion in the subject is no clause of its own
    ("My husband and I went hiking.", ["My husband and I went hiking."]),
    # residue: a greeting, a verdict on the last turn, filler
    ("Hi, I'm planning a trip to Japan.", ["I'm planning a trip to Japan."]),
    ("That's cool, I like jazz.", ["I like jazz."]),
    ("Actually, well, I live in Lisbon.", ["I live in Lisbon."]),
    # a note to the listener that a fact follows (issue #11)
    ("Just so you know, I prefer Neovim to VS Code.", ["I prefer Neovim to VS Code."]),
    ("For the record, I live in Lisbon.", ["I live in Lisbon."]),
    # a tag question after a statement asks only for agreement; a question stays one
    ("Oh, and I started my own online clothing store last month, pretty cool, huh?",
     ["I started my own online clothing store last month, pretty cool"]),
    ("We moved to Leeds last spring, you know?", ["We moved to Leeds last spring"]),
    ("I love Lisbon, don't you think?", ["I love Lisbon"]),
    ("Is it far from the city, right?", ["Is it far from the city, right?"]),
    ("What a day, huh?", ["What a day, huh?"]),
    # a question after a dash is a question of its own, the statement before it a statement
    ("FYI, I finished another pottery project - want to see a pic?",
     ["I finished another pottery project", "Want to see a pic?"]),
    ("Is it the one by the lake - the big one?", ["Is it the one by the lake - the big one?"]),
    # a companion in the subject after an opening phrase is no clause of its own either
    ("Speaking of trips, my wife and I just left for Rome.",
     ["Speaking of trips, my wife and I just left for Rome."]),
    # initials run together go on into the name; before a sentence's opening word they end it
    ("There's a quote by J.K. Rowling that I really like.",
     ["There's a quote by J.K. Rowling that I really like."]),
    ("I moved to the U.S. It was hard.", ["I moved to the U.S.", "It was hard."]),
    # a name with an appositive: one clause per slot
    ("I'm Tomás, a data analyst at Brightwell in Valencia.",
     ["My name is Tomás.", "I'm a data analyst.", "I work at Brightwell.",
      "I'm based in Valencia."]),
    # "and my" opens a clause only when a verb follows what it names: a second companion or
    # thing stays in its sentence ("The user's sister last weekend." was a memory of its own)
    ("I went hiking with my mom and my sister last weekend.",
     ["I went hiking with my mom and my sister last weekend."]),
    ("I live with my husband and my two cats.", ["I live with my husband and my two cats."]),
    ("I live in Oslo and my wife works at Equinor.", ["I live in Oslo", "My wife works at Equinor."]),
    ("We went camping and my kids loved it.", ["We went camping", "My kids loved it."]),
    ("I like tea, and my favorite is green tea.", ["I like tea", "My favorite is green tea."]),
    # many of a kind conceded, then the favourite among them: one fact, said with its kind
    # (SPC development rows: "Sam likes a lot of different bands." and "Sam's favorite is ...")
    ("I like a lot of different bands, but my favorites are The Cure and The Smiths.",
     ["My favorite bands are The Cure and The Smiths."]),
    ("I like all kinds of music, but my favorite is probably rock.",
     ["My favorite music is probably rock."]),
    ("I like to play a lot of different video games, but my favorite is Mario Kart.",
     ["My favorite video game is Mario Kart."]),
    ("I have a lot of favorite books, but I think my favorite is The Great Gatsby.",
     ["My favorite book is The Great Gatsby."]),
    ("I have a lot of favorite books, but one of my favorites is Dune.",
     ["One of my favorite books is Dune."]),
    ("I have a lot of favorite books, but I think my favorite one is Dune.",
     ["My favorite book is Dune."]),
    ("I produce a lot of different types of music, but my favorite is hip hop.",
     ["My favorite music to produce is hip hop."]),
    ("I like to do a lot of different things, but my favorite is running.",
     ["My favorite thing to do is running."]),
    ("There are so many great climbing spots in Colorado, but my favorite is Red Rock Canyon.",
     ["My favorite climbing spot in Colorado is Red Rock Canyon."]),
    ("I love pizza of all kinds, but my favorite is pepperoni.", ["My favorite pizza is pepperoni."]),
    ("I like to grow a variety of flowers, but my favorite are roses.",
     ["My favorite flowers to grow are roses."]),
    ("I have a lot of hobbies, but my favorite is chess.", ["My favorite hobby is chess."]),
    ("I like a lot of movies, but my favorite is Alien.", ["My favorite movie is Alien."]),
    ("I like playing a lot of different games, but my favorites are Minecraft and Sims.",
     ["My favorite games are Minecraft and Sims."]),
    # ... or which of them some other way: one fact with its kind (SPC development rows 200-349,
    # 450-499, 950-999: "Sam likes all kinds of movies." and "Sam especially likes comedies.")
    ("I like all kinds of movies, but I especially like comedies and action movies.",
     ["I like movies, especially comedies and action movies."]),
    ("I like to read all kinds of books, but I especially like thrillers, mysteries, and romance.",
     ["I like to read books, especially thrillers, mysteries, and romance."]),
    ("I like a lot of different kinds of music, but I mostly listen to rock and alternative.",
     ["I like music, mostly rock and alternative."]),
    ("I produce a variety of music, but I'm mostly into hip-hop and electronic music.",
     ["I produce music, mostly hip-hop and electronic music."]),
    ("I like all kinds of art, but I'm particularly drawn to modern art.",
     ["I like art, especially modern art."]),
    ("I love listening to all kinds of music, but I really like pop and rock!",
     ["I love listening to music, especially pop and rock!"]),
    ("I like to read a lot of different things, but I mostly read nonfiction.",
     ["I like to read, mostly nonfiction."]),
    ("I like a lot of different things, but I'm especially into chess.",
     ["I'm especially into chess."]),
    ("I like a lot of different kinds of music, but my favorite artist is Travis Scott.",
     ["My favorite artist is Travis Scott."]),
    ("I have a lot of favorite songs, but I think my favorite song right now is Positions.",
     ["My favorite song right now is Positions."]),
    # ... not when the which says no kind of its own, or is no liking ("specialize")
    ("I have a lot of things, but I especially like my guitar.",
     ["I have a lot of things", "I especially like my guitar."]),
    ("I like all kinds of music, but I especially like to dance to hip-hop.",
     ["I like all kinds of music", "I especially like to dance to hip-hop."]),
    ("I work with all kinds of animals, but I specialize in birds.",
     ["I work with all kinds of animals", "I specialize in birds."]),
    ("There are so many great spots here, but I mostly go to Red Rock.",
     ["There are so many great spots here", "I mostly go to Red Rock."]),
    # ... nor when the second half is a contrast, not one of the many: another thing liked,
    # a gerund, a pronoun, or a taste after having
    ("I have a lot of friends, but I really like spending time alone.",
     ["I have a lot of friends", "I really like spending time alone."]),
    ("I have lots of cats, but I mostly like dogs.", ["I have lots of cats", "I mostly like dogs."]),
    ("I have lots of cats, but I'm mostly into dogs.",
     ["I have lots of cats", "I'm mostly into dogs."]),
    ("I have a lot of work, but I really enjoy it.", ["I have a lot of work", "I really enjoy it."]),
    ("I like all kinds of sports, but I mostly do yoga.",
     ["I like all kinds of sports", "I mostly do yoga."]),
    ("I watch all kinds of shows, but I really watch The Office the most.",
     ["I watch shows, especially The Office."]),
    # ... not without the many, nor when the kind is no noun ("things" had)
    ("I have two dogs, but my favorite is Rex.", ["I have two dogs", "My favorite is Rex."]),
    ("I have a lot of things, but my favorite is my guitar.",
     ["I have a lot of things", "My favorite is my guitar."]),
    # an answer's "no" before its statement is residue (only with its comma)
    ("No, I haven't read them yet.", ["I haven't read them yet."]),
    # news announced before it is told is residue (LoCoMo's tune part)
    ("Gina, you won't believe it - I got mentored by a business coach.",
     ["I got mentored by a business coach."]),
    ("You won't believe it, I won the lottery.", ["I won the lottery."]),
    ("Nope, never been on a sports team.", ["Never been on a sports team."]),
    ("No one knows my name.", ["No one knows my name."]),
    # a "we" or "our" clause of the family or team is a statement of its own, when it stands
    # alone (long enough for the weak rule, or a cue) and a verb follows what "our" names
    ("We live in Halifax and our kids go to school there.",
     ["We live in Halifax", "Our kids go to school there."]),
    ("My wife and I moved to Leeds, and our son started school.",
     ["My wife and I moved to Leeds", "Our son started school."]),
    ("I love hiking and we go to the Alps every summer.",
     ["I love hiking", "We go to the Alps every summer."]),
    ("My husband and I went hiking and we saw a bear.",
     ["My husband and I went hiking", "We saw a bear."]),
    ("Our team uses Rust and we deploy on Fridays.",
     ["Our team uses Rust and we deploy on Fridays."]),
    ("I went hiking with my mom and our dog.", ["I went hiking with my mom and our dog."]),
    # catching up before a statement is residue
    ("Since we last spoke, I went to that community mtg.", ["I went to that community mtg."]),
    ("Quite a week since we last talked - something awesome happened to me.",
     ["Something awesome happened to me."]),
    ("Things have been great since we last talked - I've been focusing on school.",
     ["I've been focusing on school."]),
    ("Haven't talked in a few days, wanted to let you know I joined a travel club.",
     ["I joined a travel club."]),
    ("A lot's happened - I just got accepted for a fashion internship.",
     ["I just got accepted for a fashion internship."]),
    # issue #11 item 3: a label of four words, one after the first sentence, a plan called
    # off, a request to the listener before the speaker's own clause
    ("A bit of background: I work nights.", ["I work nights."]),
    ("Hi! A bit of background: I'm a nurse.", ["Hi!", "I'm a nurse."]),
    ("My two favourite things: hiking and tea.", ["My two favourite things: hiking and tea."]),
    ("Scratch the marathon, I hurt my ankle.", ["I gave up the marathon", "I hurt my ankle."]),
    ("Scratch that, I meant Tuesday.", ["Scratch that, I meant Tuesday."]),
    ("Keep it under 30 minutes, I cook after work.", ["Keep it under 30 minutes", "I cook after work."]),
    ("I'm Priya, 29, a backend developer in Bangalore.",
     ["My name is Priya.", "I'm 29.", "I'm a backend developer.", "I'm based in Bangalore."]),
    # a user-style review: the opener stayed in the statement, or kept two clauses as one
    ("Big news, I moved to Madrid last month.", ["I moved to Madrid last month."]),
    ("Good news: we got the flat in Leeds.", ["We got the flat in Leeds."]),
    ("Big news is coming.", ["Big news is coming."]),
    ("And I left Ferrovia Labs, I now work at Renfe.", ["I left Ferrovia Labs", "I now work at Renfe."]),
    # issue #11 item 2: a standing request after the speaker's own clause is a statement of
    # its own, read as one said alone
    ("I sleep from 9am to 3pm after a night shift, so please never schedule calls for me before 3pm.",
     ["I sleep from 9am to 3pm after a night shift", "I ask never to schedule calls for me before 3pm."]),
    ("I work nights; don't book meetings before noon.",
     ["I work nights", "I ask not to book meetings before noon."]),
    ("Please never schedule calls for me before 3pm.", ["I ask never to schedule calls for me before 3pm."]),
    ("I love my job, so don't give up on me.", ["I love my job, so don't give up on me."]),
    # a request of the moment after the speaker's own clause is none of their facts (the
    # developer's chat in tests/test_pipeline.py)
    ("I use Neovim for everything, so please give me commands rather than VS Code steps.",
     ["I use Neovim for everything", "Please give me commands rather than VS Code steps."]),
    ("By the way, we can't ship GPL code, so keep that in mind when you suggest packages.",
     ["We can't ship GPL code", "Keep that in mind when you suggest packages."]),
    ("I told Sam, so keep it quiet.", ["I told Sam, so keep it quiet."]),
    # a turn back to what was said, or surprise, before the statement is residue
    ("Speaking of which, I can now lift 10 pounds in each hand.",
     ["I can now lift 10 pounds in each hand."]),
    ("Wow, I love hiking.", ["I love hiking."]),
    # after "and" the verb is the speaker's own second predicate, no request (a code review)
    ("I love Italian food, and make the pasta from scratch every Sunday.",
     ["I love Italian food, and make the pasta from scratch every Sunday."]),
    ("I run every morning, and keep a log of every run.",
     ["I run every morning, and keep a log of every run."]),
    # a consequence after a comma is a clause of its own (the family's chat)
    ("Tom doesn't eat raw fish, so sushi dinners are out for him.",
     ["Tom doesn't eat raw fish", "Sushi dinners are out for him."]),
    # ... when each half would be read as a statement alone (a code review: "I'm a nurse, so I
    # work night shifts" lost its shifts, "I work nights, so I sleep until noon" both halves)
    ("We live in Ghent, so we'd fly from Brussels.", ["We live in Ghent, so we'd fly from Brussels."]),
    ("I'm a nurse, so I work night shifts.", ["I'm a nurse, so I work night shifts."]),
    ("I work nights, so I sleep until noon.", ["I work nights, so I sleep until noon."]),
    ("I'm vegetarian, so I cook a lot of lentils.", ["I'm vegetarian", "I cook a lot of lentils."]),
    ("I've liked it, so far.", ["I've liked it, so far."]),
    ("I was tired, so much so that I slept.", ["I was tired, so much so that I slept."]),
    ("I love it, so go for it.", ["I love it, so go for it."]),
    # when is said before "so" only: the sentence stays whole, so the consequence keeps it
    ("I was bored yesterday, so I took my turtles out for a walk.",
     ["I was bored yesterday, so I took my turtles out for a walk."]),
    ("I moved in May, so I live in Porto now.", ["I moved in May, so I live in Porto now."]),
    # a clause after "so" that points back by a pronoun stays with what it points at
    ("It's a bit too tight for me, so I'm thinking of getting rid of it.",
     ["It's a bit too tight for me, so I'm thinking of getting rid of it."]),
    ("I love my bike, so I ride it every day.", ["I love my bike, so I ride it every day."]),
    ("My sister is a nurse, so she works nights.", ["My sister is a nurse, so she works nights."]),
    ("I'm vegetarian, so when I cook it'll be a curry.",
     ["I'm vegetarian", "When I cook it'll be a curry."]),
    # a code review: a condition keeps its request, and a request told to someone is theirs
    ("Before 9am, please never call me.", ["Before 9am, please never call me."]),
    ("I told my boss, please never call me after 6pm.",
     ["I told my boss, please never call me after 6pm."]),
    # issue #11 item 1: an answer word read off leaves no sentence of punctuation
    ("Yes. I live in Porto.", ["I live in Porto."]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), STATEMENTS, ids=[s[0] for s in STATEMENTS])
def test_statements(text: str, expected: list[str]):
    assert statements(text) == expected


# fmt: off
SECRET_CLAUSES = [
    ("I moved to Leeds last year; my wifi password is [REDACTED password].",
     ["I moved to Leeds last year", "my wifi password is [REDACTED password]."]),
    ("My password is [REDACTED password], I'm a nurse in Leeds.",
     ["My password is [REDACTED password]", "I'm a nurse in Leeds."]),
    ("I work at Acme and the admin password is [REDACTED password] btw.",
     ["I work at Acme", "the admin password is [REDACTED password] btw."]),
    # clauses without a secret stay together as said
    ("I live in Leeds, UK, and the door code is [REDACTED password].",
     ["I live in Leeds, UK", "the door code is [REDACTED password]."]),
    # the secret is the whole clause: nothing is left to learn beside it
    ("I use the key [REDACTED aws_access_key] for my backups.",
     ["I use the key [REDACTED aws_access_key] for my backups."]),
    # no secret: as it is
    ("I live in Leeds, and I love it.", ["I live in Leeds, and I love it."]),
]
# fmt: on


@pytest.mark.parametrize(("clause", "pieces"), SECRET_CLAUSES, ids=[s[0] for s in SECRET_CLAUSES])
def test_a_secrets_clause_stands_apart_from_the_facts_beside_it(clause: str, pieces: list[str]):
    assert without_secrets(clause) == pieces


def test_code_and_quoted_speech_are_removed_and_a_title_kept():
    text = clean(
        "I use `pip install x` daily.\n> quoted reply\n"
        'She said "I will never move to Leeds, ever." I read "The Wheel of Time".'
    )
    assert "pip install" not in text and "quoted reply" not in text
    assert "never move" not in text and QUOTED_MARK in text
    assert '"The Wheel of Time"' in text


def test_curly_apostrophes_read_as_straight_ones():
    # how macOS and iOS type "I'm": the rules are written with "'"
    assert clean("I’m allergic to penicillin; it’s ‘serious’.") == (
        "I'm allergic to penicillin; it's 'serious'."
    )


ESSAY = (
    "Personal Statement:\n12\n12 is the number of my idol, Tom Brady. It's the sum of all the "
    "letters in my name. It's also how old I was when I started high school.\n\nIn short, I "
    "skipped two grades: first and sixth. Between kindergarten and eighth grade, I attended "
    "three schools, and I learned to make friends fast. Now, I am happy to settle for Bill "
    "Belichick."
)


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # a hand-judged LongMemEval sample: a pasted essay's "I" taken for the person's
        ("Here's another personal statement that's considered excellent. Can you highlight "
         f"why it worked well?\n\n{ESSAY}",
         "Here's another personal statement that's considered excellent. Can you highlight "
         "why it worked well?"),
        (f"Please turn this entire article into a bulleted list.\n{ESSAY}\n\nIs that doable?",
         "Please turn this entire article into a bulleted list.\n\nIs that doable?"),
        (f"Can you proofread the following?\n\n{ESSAY}", "Can you proofread the following?"),
        # the person's own paragraphs, or a short text after a request: as they are
        (f"I moved to Porto last year.\n\n{ESSAY}", f"I moved to Porto last year.\n\n{ESSAY}"),
        ("Can you check this?\n\nI live in Porto.", "Can you check this?\n\nI live in Porto."),
        ("Here's my plan: I run on Mondays.", "Here's my plan: I run on Mondays."),
    ],
)  # fmt: skip
def test_a_pasted_text_is_not_the_persons_words(message: str, kept: str):
    assert without_pasted(message) == kept
