//! cqlmodel's verdict on a statement against the node's.

use crate::Verdict;

/// How cqlmodel's verdict (its error message, or none) compares with the node's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Agreement {
    BothAccept,
    /// Both reject with the same message, verbatim.
    SameRejection,
    BothRejectDifferently {
        ours: String,
        theirs: String,
    },
    OnlyNodeRejects {
        theirs: String,
    },
    OnlyWeReject {
        ours: String,
    },
}

impl Agreement {
    pub fn of(ours: Option<&str>, node: &Verdict) -> Agreement {
        match (ours, node.message()) {
            (None, None) => Agreement::BothAccept,
            (Some(ours), Some(theirs)) if ours == theirs => Agreement::SameRejection,
            (Some(ours), Some(theirs)) => Agreement::BothRejectDifferently {
                ours: ours.to_string(),
                theirs: theirs.to_string(),
            },
            (None, Some(theirs)) => Agreement::OnlyNodeRejects {
                theirs: theirs.to_string(),
            },
            (Some(ours), None) => Agreement::OnlyWeReject {
                ours: ours.to_string(),
            },
        }
    }

    pub fn agrees(&self) -> bool {
        matches!(self, Agreement::BothAccept | Agreement::SameRejection)
    }

    /// One line for a report: what each side said.
    pub fn describe(&self) -> String {
        match self {
            Agreement::BothAccept => "both accept".into(),
            Agreement::SameRejection => "both reject with the same message".into(),
            Agreement::BothRejectDifferently { ours, theirs } => {
                format!("both reject; node: {theirs:?}; cqlmodel: {ours:?}")
            }
            Agreement::OnlyNodeRejects { theirs } => {
                format!("node rejects, cqlmodel accepts; node: {theirs:?}")
            }
            Agreement::OnlyWeReject { ours } => {
                format!("cqlmodel rejects, node accepts; cqlmodel: {ours:?}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rejection;

    fn rejected(message: &str) -> Verdict {
        Verdict::Rejected(Rejection {
            class: "Invalid".into(),
            message: message.into(),
        })
    }

    #[test]
    fn the_same_message_agrees_and_another_does_not() {
        assert!(Agreement::of(Some("m"), &rejected("m")).agrees());
        assert_eq!(
            Agreement::of(Some("m"), &rejected("n")),
            Agreement::BothRejectDifferently {
                ours: "m".into(),
                theirs: "n".into()
            }
        );
    }

    #[test]
    fn one_sided_rejections_disagree() {
        let accepted = Verdict::Accepted {
            warnings: Vec::new(),
        };
        assert!(Agreement::of(None, &accepted).agrees());
        assert!(!Agreement::of(Some("m"), &accepted).agrees());
        assert!(!Agreement::of(None, &rejected("n")).agrees());
    }
}
