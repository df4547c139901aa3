"""Sentences about the conversation, not facts about the speaker (extract/chatter.py).

Each row is a sentence and the reason it is skipped, or None when it is a statement the cues
may read.
"""

from __future__ import annotations

import pytest

from tota_vault.extract.chatter import (
    DANGLING,
    about_the_listener,
    conversational,
    is_answer,
    skip_reason,
    wished_on,
)

# fmt: off
REASONS = [
    ("Do you have any pets?", "a question"),
    ("What a day", "a question"),
    # "have" asks only before a subject (issue #11 item 5)
    ("Have you ever been to Rome", "a question"),
    ("Have fun!", "not about the speaker"),
    ("Now tell me more about your cooking.", "addressed to the listener"),
    ("Keep it under 30 minutes per meal, since I cook late.", "addressed to the listener"),
    ("Please call me Dee from now on.", None),
    ("If I won the lottery I would buy a boat.", "hypothetical"),
    ("My friend said she likes jazz.", "someone else's words"),
    ("The weather is nice today in the city.", "not about the speaker"),
    ("Wow, I love that!", "small talk"),
    ("My wifi password is [REDACTED password].", "contains a secret"),
    ("I use the key [REDACTED aws_access_key] for my backups.", "contains a secret"),
    # reactions: a stance on the last turn or the listener
    ("I'm sure you'd like it.", "a reaction"),
    ("I'm sorry to hear that.", "a reaction"),
    ("I'm doing great, thanks.", "a reaction"),
    ("I'm here for you.", "a reaction"),
    # promises about the conversation, offers
    ("I'll have to check it out.", "a promise about the conversation"),
    ("I'll let you know.", "a promise about the conversation"),
    ("I will keep that in mind.", "a promise about the conversation"),
    ("I'll give it a go sometime.", "a promise about the conversation"),
    ("I'd love to show you around.", "a promise about the conversation"),
    # the listener or their things as the object
    ("I like your shirt.", "addressed to the listener"),
    ("Here are some pictures of my dresses.", "addressed to the listener"),
    # references the sentence cannot resolve
    ("I'm not very good at them.", DANGLING),
    ("I've always wanted to.", DANGLING),
    ("That's why I love it.", DANGLING),
    ("I love it for the most part.", DANGLING),
    # a user-style review: "Prefers it to VS Code." was stored, and reached the profile
    ("I prefer it to VS Code.", DANGLING),
    ("I like it better than paper books.", DANGLING),
    ("I prefer it over tea.", DANGLING),
    ("I've never had it in Japan.", DANGLING),
    ("I've been there a few times.", DANGLING),
    ("I like the challenge of it.", DANGLING),  # "the challenge" is what "it" complements
    ("I love being a part of that.", DANGLING),
    ("I saw her in concert last year.", DANGLING),  # no person before "her"
    ("I thought it was really good!", DANGLING),
    ("I've only read it once.", DANGLING),
    ("I've always had a soft spot for them.", DANGLING),  # "a soft spot" is no plural
    ("I would love to go one day.", DANGLING),
    ("I used to do that when I was a kid.", DANGLING),
    ("I'm a much better cook because of it.", DANGLING),
    ("I wish I could say the same about my job.", DANGLING),
    ("I feel the same way.", DANGLING),
    ("I'm planning on having one soon.", DANGLING),
    ("I love making a difference in their lives.", DANGLING),  # whose lives?
    ("I'm here on a student visa.", DANGLING),  # where is here?
    ("I have always thought that would be a fun job.", DANGLING),
    # a pronoun read by its grammar, wherever it stands (extract/chatter.py: _unbound)
    ("I've watched it three times this month.", DANGLING),  # an object, then an adverbial
    ("I wrote that a couple of years ago.", DANGLING),  # "that" before a phrase of time
    ("I'm still getting used to it, but I'm enjoying it so far.", DANGLING),
    ("My cat would hate it!", DANGLING),  # the clause's own subject is no antecedent
    ("I admire the way it glows at night.", DANGLING),  # "the way" heads the clause
    ("I'm hoping it will get easier with practice.", DANGLING),
    ("I never find it boring.", DANGLING),
    ("I barely know anybody there.", DANGLING),  # a place, with none named
    ("I used to spend every summer out there.", DANGLING),
    ("I really miss those evenings.", DANGLING),  # a plural demonstrative points back
    ("I still wear that jacket all the time.", DANGLING),  # only an adverbial after it
    # a bare noun in a clause before "it" is what it stands for (issue #11): "it" is sushi
    ("I love sushi and eat it every Friday.", None),
    ("I love it every Friday.", DANGLING),
    ("I felt liberated and empowered doing it.", DANGLING),  # no thing before (LoCoMo)
    ("I love helping those who struggle with maths.", None),  # the relative says who
    ("I treasure those mornings when we fished together.", None),
    # news to the speaker, what the listener just told (a hand-judged LongMemEval sample)
    ("I never knew there were so many different coffee options!", "a reaction"),
    ("I didn't realize they consulted with historians.", "a reaction"),
    ("I never knew my father.", None),
    ("I didn't know how to swim until I was 30.", None),
    # a time said with "this": no reference ("this quarter" is the one it is now)
    ("I'm migrating our billing jobs from cron to Celery this quarter.", None),
    ("We're shipping the new search this sprint.", None),
    ("I'm migrating our billing jobs to that service.", "a reference to something not said"),
    ("I'm going to buy a cheap one.", DANGLING),  # "one" stands for a noun said before
    ("I finally saw the one with the dragons.", DANGLING),
    ("I've never had a teacher like that.", DANGLING),  # "like that" complements the noun
    ("I wish I could come.", DANGLING),  # where to, the last turn says
    ("I really want to go, though.", DANGLING),
    # ... and the same words where the sentence holds what they stand for
    ("I adopted a kitten last year and I feed it twice a day.", None),
    ("I grew up in Denver and I still live there.", None),
    ("I bought a blue bike and a red one.", None),
    ("I find it hard to get up before seven.", None),  # "it" announces the infinitive
    ("What's it like working nights?", "a question"),  # ... or the gerund
    ("My best gig was when they played in Leeds.", DANGLING),  # "they" with no plural
    ("I have two aunts and they both knit.", None),
    ("I've owned both models since they came out.", DANGLING),  # which two?
    ("I speak both Welsh and English at home.", None),  # the two follow
    ("I love it when my garden blooms.", DANGLING),  # unchanged: "love it" at a reference
    ("I was laid off in March, and it changed how I see work.", None),
    ("I have three brothers and I call them every Sunday.", None),
    ("I mostly cook at home these days.", None),  # the near demonstrative of time is now
    # reactions and the listener, with words of their own
    ("We have a lot in common.", "a reaction"),
    ("I appreciate the vote of confidence.", "a reaction"),
    ("I can understand that.", "a reaction"),
    ("I've heard great things about Lisbon!", "a reaction"),
    ("I've heard great things about that book!", "a reaction"),  # whatever points at it
    ("We should go hiking together sometime!", "a promise about the conversation"),
    ("You're welcome to come to one of my workshops.", "addressed to the listener"),
    ("I'll come over and we can play some games.", "a promise about the conversation"),
    ("I will be sure to check it out.", "a promise about the conversation"),
    # the listener praised or addressed
    ("I'm always so proud of you.", "a reaction"),
    ("Your support really means a lot to me.", "addressed to the listener"),
    ("Maria, your kind words give me the motivation to keep going.", "addressed to the listener"),
    ("Let me know how it goes.", "addressed to the listener"),
    ("If you ever need any advice, let me know.", "addressed to the listener"),
    ("I'm always trying out new recipes, so let me know if you want some.", None),
    ("Tell me more about your trip to Rome!", "addressed to the listener"),
    ("Let's keep chasing our dreams and supporting each other.", "addressed to the listener"),
    ("I'll do my best to make you proud!", "a promise about the conversation"),
    ("I'll be right by your side, Jon.", "a promise about the conversation"),
    # a verdict on the last turn: how it sounds, hearsay, what the speaker could not do
    ("That sounds like it can be a lot of fun.", "not about the speaker"),
    ("It looks like you had an amazing time at the lake.", "not about the speaker"),
    ("I've heard that's a tough job.", "a reaction"),
    ("I don't think I could ever do that.", "a reaction"),
    ("I could never handle that, honestly.", "a reaction"),
    ("I can relate to that.", "a reaction"),
    # no question: a contraction of "can", a subordinate clause before the main one
    ("Can't wait 'til my studio starts welcoming dancers of all ages!", None),
    ("Can't wait to hear when you are going.", "a reaction"),
    ("When I was a kid I lived in Rome.", None),
    ("When we moved to Leeds, my son started at a new school.", None),
    ("When did you move to Leeds", "a question"),
    ("Can you send me the recipe", "a question"),
    # the speaker with the listener closes the sentence: about the conversation
    ("I'm pumped to collaborate with you and make some sweet moves!",
     "a promise about the conversation"),
    ("I'm always around for you.", "a promise about the conversation"),
    ("I play tennis with my brother every Sunday.", None),
    # the listener's thing, or the speaker's own thing named before, by a possessive pronoun
    ("I like yours a lot.", "addressed to the listener"),
    ("I get mine from a little shawarma place downtown.", DANGLING),
    ("Mine is a golden retriever named Max.", DANGLING),
    ("A friend of mine runs a bakery in Leeds.", None),
    # ... and the same words about the speaker's own things
    ("My dog must weigh about forty pounds now.", None),
    ("I must have run that trail a hundred times since I moved.", None),
    ("Let me tell you, I've never worked harder than in my first year.", None),
    # statements
    ("I live in Porto.", None),
    ("I'm happy with my job at the bakery.", None),
    ("I love hiking in the mountains.", None),
    ("I have two dogs and I love them.", None),  # "them" has its antecedent
    ("I love my kids and I'm proud of them.", None),
    ("My sister is a singer and I love her voice.", None),
    ("I love Paris, I've been there twice.", None),
    ("I'm a part of the local choir.", None),
    ("I love my kids and their laughter.", None),
    ("I have a brother and I love his kids.", None),
    ("I moved here from Germany last year.", None),
    ("We can't ship copyleft code.", None),
    ("We should migrate to Postgres.", None),
    ("I'm sure I'll pass the bar exam in June.", None),
    # talk about the conversation itself (issue #11)
    ("I'm going to bed now, talk tomorrow.", "about the conversation"),
    ("I'm back, sorry for the delay.", "about the conversation"),
    ("I meant the second option, not the first one.", "about the conversation"),
    ("I'm off to Paris next week for a conference.", None),
    ("I'm back in Lisbon after two years in Berlin.", None),
    # leaving the talk (SPC development rows: "Sam has to go now." was a constraint)
    ("I should probably get going.", "about the conversation"),
    ("I have to go now.", "about the conversation"),
    ("I gotta head out for the night.", "about the conversation"),
    # "I've got to" was an alternative no sentence could reach (SPC rows 200-349, 450-499,
    # 950-999: "Sam has got to get going.")
    ("I've got to get going.", "about the conversation"),
    ("I have got to run now.", "about the conversation"),
    ("I've got to go to Lyon for work.", None),
    ("I have to go to Paris for work.", None),
    ("I need to get going on my thesis.", None),
    # the answer to thanks, and what the speaker was told or whether they know a name
    ("I'm glad I could help.", "addressed to the listener"),
    ("I'm glad I could help my sister move.", None),
    ("I've heard that the people are very friendly.", "someone else's words"),
    ("I read somewhere that nursing school is really tough.", "someone else's words"),
    ("I heard that song on the radio yesterday.", None),
    ("I heard that a new bakery is opening on my street.", "someone else's words"),
    ("I read that a few years ago.", DANGLING),
    ("I've never heard of them.", "a reaction"),
    ("I've heard of Metallica.", "a reaction"),
    ("I had never heard of kombucha until my sister brewed some.", None),
    # a question put off, news to the speaker, a polite guess, the answer to a welcome
    ("I'm not sure yet.", "about the conversation"),
    ("I'm still thinking about it.", "about the conversation"),
    ("It's hard to say, I have so many favorites.", "about the conversation"),
    ("I'm not sure what I want to study.", None),
    ("I have so many cats.", None),
    ("I never knew that was possible.", "a reaction"),
    ("I'm sure I'd love it too.", "a reaction"),
    ("I'm sure I will.", "a reaction"),
    ("I'm glad to be here.", "a reaction"),
    # an offer to the listener, or what the speaker will be to them (SPC development rows)
    ("You can play with me.", "addressed to the listener"),
    ("You can always come visit mine!", "addressed to the listener"),
    ("Come on, I'll teach you.", "addressed to the listener"),
    ("I won't let you down.", "addressed to the listener"),
    ("We'd love to have you.", "addressed to the listener"),
    ("I knew you would come around.", "addressed to the listener"),
    ("If you ever need any advice on that, I'm happy to help.", "addressed to the listener"),
    ("Well, if you're ever in my area, you know where to find me.", "addressed to the listener"),
    ("I'm free this weekend if you want to go together.", "addressed to the listener"),
    ("I'll teach my son to swim.", None),
    ("I'm always happy to help.", "addressed to the listener"),  # the answer to thanks
    ("I'm always happy to help my neighbours.", None),
    # what is about to be told, the listener's company as luck, cheering them on (LoCoMo tune)
    ("There's something I want to tell you.", "about the conversation"),
    ("I have to tell you about this thing with my biz.", "about the conversation"),
    ("I wanted to tell you about my school event last week.", None),
    ("I'm lucky to have you in my life.", "a reaction"),
    ("I'm always here to cheer you on.", "a reaction"),
    ("I have a pool if you want to come over.", None),
    # a resolve to persevere, the answer to "Keep going!" (LoCoMo tune: "Jon won't quit." and
    # its like, 25 memories, 8 on gold turns); a resolve that names a thing of theirs is kept
    ("I won't give up, Gina!", "a reaction"),
    ("I won't quit, even when it's hard.", "a reaction"),
    ("I'm gonna keep on believing in myself.", "a reaction"),
    ("Gonna keep pushing and working hard.", "a reaction"),
    ("I'll keep plugging away and stay optimistic.", "a reaction"),
    ("I'm not gonna let anything or anyone stop me.", "a reaction"),
    ("I'm feeling confident and won't give up.", "a reaction"),
    ("We'll get through this!", "a reaction"),
    ("We're in this together!", "a reaction"),
    ("I'll keep working on my novel.", None),
    ("I won't give up on learning Spanish.", None),
    ("I'll keep going to the gym after the move.", None),
    ("I never give up on a crossword puzzle.", None),
    ("I quit my job at the bank last week.", None),
    ("I work hard every single day.", None),
    ("We'll be in Lisbon for the whole of next week.", None),
]
# fmt: on


@pytest.mark.parametrize(("sentence", "reason"), REASONS, ids=[r[0] for r in REASONS])
def test_skip_reason(sentence: str, reason: str | None):
    assert skip_reason(sentence) == reason


@pytest.mark.parametrize(
    ("sentence", "wished"),
    [
        ("I wish I could do that.", True),
        ("I wish I could go.", True),
        ("I wish I could say the same about my job.", True),
        ("I wish I had a big family like that.", True),
        ("I'm looking forward to it.", True),
        ("I wish I could travel more.", False),  # a wish of the speaker's own
        ("I wish I had more time to read.", False),
        ("I'm looking forward to my trip to Spain.", False),
    ],
)
def test_a_wish_for_what_the_listener_said_only_reacts_to_it(sentence: str, wished: bool):
    assert wished_on(sentence) is wished


def test_the_listener_as_subject_is_addressed_to_them_but_a_generic_you_is_advice():
    assert conversational("You must have been elated.") == "addressed to the listener"
    assert conversational("You should try it sometime.") == "addressed to the listener"
    assert conversational("You can use coconut oil instead of butter.") is None
    assert conversational("I do the same job as my dad.") is None


# fmt: off
#: Sentences with nothing about the speaker that are still no remark worth keeping: the
#: listener's experience guessed at ("must"), the listener praised, a verdict on the last turn.
GUESSES = [
    ("Winning a tough game must have been such an exhilarating experience!", "a reaction"),
    ("That must have been so tough for your family.", "a reaction"),
    ("Must be so rewarding to delve into your books and chat about them.", "a reaction"),
    ("It must add so much holiday cheer to your house.", "a reaction"),
    ("Good on you for going after what you really care about.", "a reaction"),
    ("Your studio will totally change things for lots of folks.", "addressed to the listener"),
    ("The museum must be closed on Mondays in winter.", "a reaction"),  # guessed, not known
    ("The new bridge over the river opened in March.", None),
    ("That sounds like it can be a lot of fun.", "a reaction"),
    ("These look amazing, especially the blue one.", "a reaction"),
]
# fmt: on


@pytest.mark.parametrize(("sentence", "reason"), GUESSES, ids=[g[0] for g in GUESSES])
def test_what_the_listener_must_feel_is_a_guess_not_a_remark(sentence: str, reason: str | None):
    assert conversational(sentence) == reason


def test_a_reaction_after_thanks_or_before_a_closing_marker_is_still_one():
    assert conversational("Thanks, I'm so glad you liked it, honestly.") == "a reaction"


@pytest.mark.parametrize(
    ("sentence", "answers"),
    [
        ("By April 1.", True),
        ("Definitely Star Wars!", True),
        ("Yes!", False),
        ("Of course!", False),
        ("Pretty good, thanks.", False),
        ("Thanks so much.", False),
        ("When is it?", False),
        ("I'm sorry to hear that.", False),
        ("quick question", False),
        ("A follow-up question.", False),
        ("Probably the Lisbon trip.", True),
        # laughter answers nothing, however it is spelt
        ("Ha, ha!", False),
        ("Hehe, lol.", False),
    ],
)
def test_a_short_answer_has_content(sentence: str, answers: bool):
    assert is_answer(sentence) is answers


# fmt: off
#: A remark (nothing of its speaker) that speaks of "you" is about the listener: praise,
#: advice, a comment on their life.
LISTENER_REMARKS = [
    ("It's wonderful that all your hard work on the shelf paid off in the end.", True),
    ("Mixing your two hobbies into one small business is super clever.", True),
    ("Sleep is a priority, so make sure you take care of yourself.", True),
    ("The stories at the group were so inspiring and moving for everyone.", False),
    ("Pottery is so relaxing and creative for everyone who tries it.", False),
]
# fmt: on


@pytest.mark.parametrize(("remark", "listener"), LISTENER_REMARKS)
def test_a_remark_that_speaks_of_you_is_about_the_listener(remark: str, listener: bool):
    assert about_the_listener(remark) is listener


@pytest.mark.parametrize(
    "sentence",
    ["Sorry to hear about the old one, but glad to see the new shelf.", "So glad to hear it."],
)
def test_a_stance_on_what_was_heard_is_a_reaction_with_its_i_left_out(sentence: str):
    assert conversational(sentence) == "a reaction"


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("I'm so proud to be part of the difference you're making.", "a reaction"),
        ("I'm impressed by how calm you stayed through all of it.", "a reaction"),
        ("I'm really grateful for your help with the move.", "a reaction"),
        # a feeling of the speaker's own, with no listener in it, is a fact
        ("I'm so proud of my daughter for finishing her degree.", None),
    ],
)
def test_a_feeling_towards_the_listener_is_a_reaction(sentence: str, reason: str | None):
    assert skip_reason(sentence) == reason
