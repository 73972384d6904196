"""Names that moved out of the rules core still import from their old modules
(fives/support/moved.py): the tally's text pictures with a DeprecationWarning, the profile
space (fives.profile_space) silently, as spec/variants.md documents both homes."""
from __future__ import annotations

import random
import warnings

import pytest

import fives.draw.tally_text
import fives.profile_space
import fives.profiles
import fives.tally


@pytest.mark.parametrize("name", ["symbol_text", "sniff_text", "crib_text", "tally_text"])
def test_the_tally_pictures_import_from_the_old_home_with_a_warning(name: str) -> None:
    with pytest.warns(DeprecationWarning, match=rf"fives\.tally\.{name} moved to fives\.draw\.tally_text\.{name}"):
        got = getattr(fives.tally, name)
    assert got is getattr(fives.draw.tally_text, name)


@pytest.mark.parametrize("name", ["DIMENSIONS", "Dimension", "alternatives", "alternative_overrides", "random_profile",
                                  "AWARD_PARAMETERS", "ORDER_COMPANIONS", "OPENING_ORDERS", "dimensions"])
def test_the_profile_space_imports_from_fives_profiles_without_a_warning(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(fives.profiles, name) is getattr(fives.profile_space, name)


def test_a_random_profile_is_the_same_from_either_home() -> None:
    from fives.profiles import random_profile

    assert random_profile(random.Random(3), "horse-race", 2) == fives.profile_space.random_profile(
        random.Random(3), "horse-race", 2)


@pytest.mark.parametrize("module", [fives.tally, fives.profiles])
def test_any_other_name_is_the_usual_attribute_error(module) -> None:
    with pytest.raises(AttributeError, match=rf"module '{module.__name__}' has no attribute 'no_such_name'"):
        getattr(module, "no_such_name")
