"""Code-name word lists for Codenames, written for this project.

The words were chosen by theme (animals, food, household objects, nature and places,
transport, people, the body, odds and ends): concrete nouns a group can picture. English words
are plain lowercase ASCII words found in a US English pronunciation dictionary (the speech
recognizer must know them), with no two sounding alike, no number words and no word that is
another list word with an ending or a part of another list word. French words are lowercase
with their accents, without spaces or hyphens.
"""

from __future__ import annotations

from collections.abc import Mapping

ENGLISH_WORDS: tuple[str, ...] = (
    "cat", "dog", "horse", "cow", "pig", "sheep", "goat", "rabbit", "mouse", "lion", "tiger",
    "bear", "wolf", "fox", "deer", "camel", "zebra", "giraffe", "elephant", "monkey",
    "gorilla", "kangaroo", "koala", "panda", "otter", "beaver", "squirrel", "hedgehog", "owl",
    "eagle", "hawk", "parrot", "penguin", "swan", "duck", "goose", "chicken", "turkey", "crow",
    "whale", "dolphin", "shark", "octopus", "squid", "crab", "lobster", "shrimp", "oyster",
    "snail", "spider", "bee", "wasp", "moth", "frog", "toad", "snake", "lizard", "turtle",
    "crocodile", "dinosaur", "dragon", "worm", "fish", "donkey", "hippo", "rhino", "leopard",
    "cheetah", "flamingo", "peacock", "ostrich", "vulture", "raven", "seal", "walrus", "puppy",
    "kitten", "mule", "llama", "bison", "buffalo", "mole", "skunk", "raccoon", "apple",
    "banana", "cherry", "grape", "lemon", "orange", "peach", "plum", "melon", "potato",
    "tomato", "onion", "garlic", "pepper", "corn", "rice", "bread", "cheese", "butter",
    "honey", "sugar", "salt", "egg", "milk", "cookie", "cake", "pie", "pizza", "soup",
    "noodle", "burger", "sausage", "bacon", "chocolate", "candy", "jam", "coffee", "tea",
    "juice", "wine", "olive", "almond", "pumpkin", "cabbage", "lettuce", "bean", "cereal",
    "yogurt", "waffle", "pretzel", "donut", "muffin", "steak", "salad", "pickle", "mustard",
    "vinegar", "avocado", "mango", "coconut", "chair", "table", "bed", "lamp", "mirror",
    "clock", "window", "door", "lock", "bell", "candle", "pillow", "blanket", "sofa", "shelf",
    "drawer", "bucket", "broom", "sponge", "soap", "bath", "sink", "fork", "knife", "spoon",
    "plate", "bowl", "cup", "glass", "bottle", "jar", "kettle", "oven", "fridge", "basket",
    "box", "bag", "wallet", "purse", "umbrella", "ladder", "nail", "screw", "saw", "rope",
    "chain", "hook", "needle", "thread", "button", "zipper", "scissors", "brush", "comb",
    "ribbon", "envelope", "stamp", "pencil", "paper", "book", "map", "globe", "ticket", "coin",
    "camera", "radio", "computer", "robot", "battery", "magnet", "engine", "wheel", "tire",
    "anchor", "compass", "telescope", "microscope", "mask", "crown", "ring", "bracelet",
    "watch", "glove", "hat", "boot", "shoe", "sock", "scarf", "jacket", "shirt", "belt",
    "dress", "skirt", "apron", "helmet", "badge", "medal", "trophy", "flag", "kite", "balloon",
    "puzzle", "doll", "drum", "guitar", "piano", "violin", "trumpet", "flute", "harp",
    "whistle", "dice", "card", "chess", "ball", "racket", "net", "mountain", "river", "lake",
    "ocean", "island", "desert", "forest", "jungle", "cave", "volcano", "valley", "cliff",
    "glacier", "snow", "rain", "cloud", "storm", "thunder", "wind", "sun", "moon", "star",
    "planet", "comet", "tree", "flower", "rose", "leaf", "grass", "root", "seed", "branch",
    "bush", "cactus", "oak", "pine", "stone", "rock", "sand", "mud", "shell", "pearl",
    "diamond", "gold", "silver", "iron", "crystal", "fire", "smoke", "ice", "field", "garden",
    "farm", "barn", "castle", "tower", "bridge", "church", "temple", "pyramid", "palace",
    "school", "hospital", "library", "museum", "prison", "bank", "market", "hotel", "theater",
    "stadium", "airport", "station", "harbor", "factory", "office", "kitchen", "garage",
    "attic", "cellar", "tunnel", "road", "street", "fountain", "statue", "fence", "wall",
    "gate", "roof", "chimney", "stairs", "elevator", "swamp", "meadow", "canyon", "car", "bus",
    "train", "truck", "bicycle", "boat", "submarine", "plane", "helicopter", "rocket", "taxi",
    "tractor", "wagon", "canoe", "sled", "scooter", "ambulance", "yacht", "king", "queen",
    "prince", "knight", "pirate", "wizard", "witch", "ghost", "giant", "doctor", "nurse",
    "pilot", "chef", "soldier", "sailor", "judge", "clown", "spy", "thief", "detective",
    "astronaut", "ninja", "vampire", "zombie", "mermaid", "angel", "baby", "hand", "foot",
    "head", "eye", "nose", "ear", "tooth", "heart", "brain", "bone", "skull", "hair", "beard",
    "finger", "thumb", "knee", "shoulder", "bomb", "sword", "shield", "arrow", "cannon",
    "spear", "axe", "armor", "treasure", "chest", "coffin", "skeleton", "web", "nest",
    "feather", "horn", "tail", "wing", "claw", "laser", "satellite", "gear", "spring", "lever",
    "pipe", "wire", "cable", "plug", "switch", "bulb", "circus", "parade", "opera", "tent",
    "flashlight",
)
"""English code names."""

FRENCH_WORDS: tuple[str, ...] = (
    "chat", "chien", "cheval", "vache", "cochon", "mouton", "chèvre", "lapin", "souris",
    "lion", "tigre", "ours", "loup", "renard", "cerf", "chameau", "zèbre", "girafe",
    "éléphant", "singe", "gorille", "kangourou", "panda", "loutre", "castor", "écureuil",
    "hérisson", "hibou", "aigle", "faucon", "perroquet", "pingouin", "cygne", "canard", "oie",
    "poule", "dinde", "corbeau", "pigeon", "baleine", "dauphin", "requin", "pieuvre", "crabe",
    "homard", "crevette", "huître", "escargot", "araignée", "fourmi", "abeille", "guêpe",
    "scarabée", "papillon", "grenouille", "crapaud", "serpent", "lézard", "tortue",
    "crocodile", "dinosaure", "dragon", "licorne", "poisson", "méduse", "âne", "hippopotame",
    "rhinocéros", "léopard", "guépard", "paon", "autruche", "vautour", "phoque", "morse",
    "chaton", "taupe", "blaireau", "bison", "lama", "hamster", "moustique", "coccinelle",
    "hirondelle", "moineau", "pomme", "banane", "cerise", "raisin", "citron", "orange",
    "pêche", "prune", "melon", "carotte", "tomate", "oignon", "poivron", "maïs", "riz",
    "fromage", "beurre", "miel", "sucre", "œuf", "lait", "biscuit", "gâteau", "tarte", "soupe",
    "nouille", "saucisse", "jambon", "chocolat", "bonbon", "confiture", "café", "thé", "jus",
    "olive", "amande", "citrouille", "chou", "salade", "yaourt", "gaufre", "crêpe", "moutarde",
    "vinaigre", "avocat", "mangue", "noix", "ananas", "fraise", "framboise", "poire",
    "courgette", "aubergine", "croissant", "omelette", "frite", "chaise", "lampe", "miroir",
    "horloge", "fenêtre", "porte", "clé", "serrure", "cloche", "bougie", "couverture",
    "canapé", "étagère", "tiroir", "balai", "éponge", "savon", "serviette", "baignoire",
    "évier", "fourchette", "couteau", "cuillère", "assiette", "bol", "tasse", "bouteille",
    "bocal", "bouilloire", "frigo", "panier", "boîte", "sac", "échelle", "clou", "vis", "scie",
    "corde", "crochet", "aiguille", "fil", "bouton", "ciseaux", "brosse", "peigne", "ruban",
    "enveloppe", "timbre", "crayon", "papier", "livre", "carte", "globe", "billet", "pièce",
    "appareil", "radio", "ordinateur", "robot", "pile", "aimant", "moteur", "roue", "pneu",
    "ancre", "boussole", "télescope", "microscope", "masque", "couronne", "bague", "bracelet",
    "montre", "gant", "chapeau", "botte", "chaussure", "chaussette", "écharpe", "veste",
    "chemise", "ceinture", "robe", "jupe", "casque", "badge", "médaille", "trophée", "drapeau",
    "ballon", "jouet", "poupée", "tambour", "guitare", "piano", "violon", "trompette", "flûte",
    "harpe", "sifflet", "dé", "échecs", "filet", "lit", "table", "armoire", "tapis", "rideau",
    "montagne", "rivière", "lac", "océan", "île", "plage", "désert", "forêt", "jungle",
    "grotte", "volcan", "vallée", "falaise", "neige", "pluie", "nuage", "orage", "tonnerre",
    "vent", "soleil", "lune", "étoile", "planète", "comète", "arbre", "fleur", "rose",
    "feuille", "herbe", "racine", "graine", "branche", "buisson", "cactus", "palmier", "chêne",
    "sapin", "pierre", "rocher", "sable", "boue", "coquillage", "perle", "diamant", "argent",
    "fer", "cristal", "feu", "fumée", "glace", "champ", "jardin", "ferme", "grange", "château",
    "tour", "pont", "église", "temple", "pyramide", "palais", "école", "hôpital",
    "bibliothèque", "musée", "prison", "banque", "marché", "hôtel", "théâtre", "stade",
    "aéroport", "gare", "usine", "bureau", "cuisine", "garage", "grenier", "cave", "tunnel",
    "route", "rue", "fontaine", "statue", "barrière", "mur", "portail", "toit", "cheminée",
    "escalier", "ascenseur", "marais", "prairie", "canyon", "colline", "cascade", "voiture",
    "bus", "train", "camion", "vélo", "bateau", "navire", "avion", "hélicoptère", "fusée",
    "taxi", "tracteur", "chariot", "canoë", "luge", "trottinette", "ambulance", "roi", "reine",
    "prince", "pirate", "sorcier", "fantôme", "géant", "docteur", "infirmière", "pilote",
    "professeur", "soldat", "marin", "juge", "clown", "espion", "voleur", "détective",
    "astronaute", "ninja", "vampire", "zombie", "sirène", "ange", "bébé", "facteur", "main",
    "pied", "tête", "œil", "nez", "oreille", "bouche", "dent", "cœur", "cerveau", "os",
    "crâne", "cheveu", "barbe", "doigt", "pouce", "genou", "épaule", "bombe", "épée",
    "bouclier", "flèche", "canon", "hache", "armure", "trésor", "coffre", "squelette", "toile",
    "nid", "plume", "corne", "queue", "aile", "griffe", "laser", "satellite", "pompe",
    "engrenage", "ressort", "levier", "tuyau", "câble", "prise", "interrupteur", "ampoule",
    "cirque", "défilé", "opéra", "tente", "lanterne", "flamant", "mousquetaire", "chef",
)
"""French code names (mots de code)."""

ENGLISH_COMPOUND_PARTS: tuple[str, ...] = (
    "man", "men", "woman", "women", "boy", "girl", "king", "queen", "house", "home", "room",
    "yard", "work", "shop", "ship", "boat", "board", "ball", "bird", "fish", "fly", "bug",
    "worm", "bee", "light", "fire", "water", "wind", "rain", "snow", "sun", "moon", "star",
    "sky", "day", "night", "time", "way", "side", "back", "front", "top", "land", "sea",
    "hill", "wood", "tree", "leaf", "root", "seed", "flower", "bush", "grass", "field", "farm",
    "road", "path", "street", "gate", "door", "wall", "roof", "floor", "step", "stair", "case",
    "box", "bag", "pack", "cup", "pot", "pan", "plate", "bowl", "glass", "bottle", "book",
    "card", "paper", "note", "letter", "mail", "post", "pen", "ink", "line", "print", "mark",
    "sign", "ring", "band", "belt", "chain", "lock", "key", "hole", "head", "hand", "foot",
    "arm", "leg", "eye", "ear", "nose", "mouth", "tooth", "hair", "face", "heart", "bone",
    "skin", "neck", "finger", "thumb", "toe", "heel", "nail", "cake", "bread", "milk", "cream",
    "butter", "cheese", "egg", "corn", "pop", "nut", "berry", "apple", "pie", "juice", "salt",
    "sugar", "tea", "fruit", "bean", "truck", "car", "bus", "train", "cart", "wheel", "plane",
    "port", "air", "craft", "fall", "storm", "cloud", "bow", "quake", "flake", "drop", "shine",
    "set", "rise", "melt", "dust", "guard", "master", "mate", "keeper", "maker", "ware",
    "place", "piece", "point", "stick", "stone", "rock", "sand", "shell", "gun", "sword",
    "shot", "fight", "war", "lord", "child", "friend", "life", "death", "ghost", "mind",
    "body", "skull", "brain", "blood", "sweat", "tear", "dream", "sleep", "bed", "bath", "tub",
    "sink", "pipe", "wire", "cable", "plug", "switch", "bulb", "clock", "watch", "bell",
    "horn", "drum", "song", "sound", "word", "talk", "speech", "phone", "cast", "hood", "ward",
    "dom", "shore", "coast", "bay", "beach", "bridge", "tower", "castle", "church", "school",
    "garden", "park", "camp", "fort", "town", "city", "world", "earth", "ground", "rail",
    "track", "lane", "walk", "run", "jump", "hop", "ride", "race", "meal", "food", "dish",
    "spoon", "fork", "knife", "oil", "gas", "coal", "iron", "gold", "silver", "steel", "tin",
    "lead", "copper", "paint", "brush", "pencil", "chalk", "glove", "hat", "cap", "coat",
    "shirt", "shoe", "boot", "sock", "lace", "button", "collar", "sleeve", "pocket", "purse",
    "wallet", "cow", "bull", "horse", "pig", "dog", "cat", "rat", "mouse", "fox", "wolf",
    "bear", "deer", "goat", "sheep", "lamb", "duck", "goose", "hen", "hawk", "owl", "crow",
    "swan", "frog", "toad", "snake", "shark", "whale", "crab", "ant", "moth", "bat",
)
"""Common English words that compound words are made of ("man" in "snowman"),
used with the word list to tell a compound ("fire" + "truck") from a coincidence
("plan" + "et")."""

FRENCH_COMPOUND_PARTS: tuple[str, ...] = (
    "porte", "feuille", "pluie", "sol", "soleil", "tourne", "boire", "vin", "aigre", "homme",
    "femme", "bon", "passe", "manteau", "route", "auto", "mer", "terre", "ciel", "feu", "bois",
    "pied", "main", "tête", "poche", "pomme", "chou", "fleur", "lit", "lune", "jour", "nuit",
    "roi", "mot", "bateau", "voile", "parleur", "haut", "bas", "garde", "coupe", "essuie",
    "tire", "bouchon", "ouvre", "boîte", "lettre", "papier", "presse", "citron", "arc",
    "gratte", "pare", "brise", "choc", "chaud", "froid", "vent", "plat", "bouche", "trou",
    "serre", "oreiller", "tard", "matin", "pot", "poivre", "sel", "sucre", "lait", "beurre",
    "miel", "mouche", "loup", "chien", "chat", "oiseau", "poule", "coq",
)
"""Common French words that fused compound words are made of ("porte" + "feuille")."""

WORD_LISTS: Mapping[str, tuple[str, ...]] = {"en": ENGLISH_WORDS, "fr": FRENCH_WORDS}
"""Word lists by language code."""

COMPOUND_PARTS: Mapping[str, tuple[str, ...]] = {
    "en": ENGLISH_COMPOUND_PARTS,
    "fr": FRENCH_COMPOUND_PARTS,
}
"""Compound-word parts by language code (besides the word list itself)."""
